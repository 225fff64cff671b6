"""Walks flapd's OpenAPI description with the read-only viewer key.

Usage: viewer_key_walk.py PORT VIEWER_KEY API_KEY
Every operation under /v1 is asked with `Authorization: Bearer VIEWER_KEY` (path parameters
filled with a name, writes given an empty JSON object); a few are asked again with the viewer key
and the API key as HTTP Basic passwords. Prints {"METHOD /path": status, ...} as JSON; only an
answer's head is read, so an event stream is closed as soon as it opens.
"""
import base64
import http.client
import json
import re
import sys

port, viewer, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]


def ask(method, path, authorization, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": authorization}
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    status = connection.getresponse().status
    connection.close()
    return status


def basic(password):
    return "Basic " + base64.b64encode(f"dashboard:{password}".encode()).decode()


connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
connection.request("GET", "/v1/openapi.json")
document = json.loads(connection.getresponse().read())
seen = {}
for path, operations in document["paths"].items():
    if not path.startswith("/v1/"):
        continue
    for method in operations:
        if method in ("get", "put", "post", "delete", "patch"):
            url = re.sub(r"\{[^}]+\}", "x", path)
            seen[f"{method.upper()} {path}"] = ask(method.upper(), url, f"Bearer {viewer}", None if method in ("get", "delete") else {})
seen["basic viewer GET /v1/board.png"] = ask("GET", "/v1/board.png", basic(viewer))
seen["basic viewer POST /v1/messages"] = ask("POST", "/v1/messages", basic(viewer), {"text": "NO"})
seen["basic key POST /v1/messages"] = ask("POST", "/v1/messages", basic(key), {"text": "BASIC"})
seen["basic wrong GET /v1/board"] = ask("GET", "/v1/board", basic("nope"))
print(json.dumps(seen))
