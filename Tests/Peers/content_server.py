"""A web server of content for flapd's sources to fetch in the tests, on 127.0.0.1 only: recorded
answers (Open-Meteo, a Home Assistant entity, feeds, calendars) and the ways servers fail.

Usage: content_server.py. Prints "listening PORT" once it accepts connections.

Control (for the tests): POST /_control/route {"path", "status": 200, "body": TEXT or
"bodyBase64", "contentType", "etag", "lastModified", "mode", "retryAfter"} sets what GET PATH
answers. With "etag" (or "lastModified"), a request whose If-None-Match (If-Modified-Since)
matches is answered 304 with no body. Modes: "normal"; "hang" (reads the request, never answers
until the connection is closed); "drop" (closes the connection unanswered). GET /_control/log
lists every request to a route: {"path", "status", "headers"}. A path with no route is 404.
"""
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
routes = {}
log = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ContentServer/1.0"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        asked = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/_control/route":
            with lock:
                routes[asked["path"]] = asked
            return self.send(204)
        self.send(404)

    def do_GET(self):
        if self.path == "/_control/log":
            with lock:
                body = json.dumps({"log": log}).encode()
            return self.send(200, body, [("Content-Type", "application/json")])
        with lock:
            route = routes.get(self.path)
        headers = {name: value for name, value in self.headers.items()}
        if route is None:
            with lock:
                log.append({"path": self.path, "status": 404, "headers": headers})
            return self.send(404, b"no such page")
        mode = route.get("mode", "normal")
        if mode == "hang":
            with lock:
                log.append({"path": self.path, "status": 0, "headers": headers})
            while self.rfile.read(1):
                pass
            return
        if mode == "drop":
            with lock:
                log.append({"path": self.path, "status": 0, "headers": headers})
            self.close_connection = True
            self.connection.close()
            return
        etag, modified = route.get("etag"), route.get("lastModified")
        validators = []
        if etag:
            validators.append(("ETag", etag))
        if modified:
            validators.append(("Last-Modified", modified))
        if (etag and self.headers.get("If-None-Match") == etag) or (modified and not etag and self.headers.get("If-Modified-Since") == modified):
            with lock:
                log.append({"path": self.path, "status": 304, "headers": headers})
            return self.send(304, headers=validators)
        status = route.get("status", 200)
        body = base64.b64decode(route["bodyBase64"]) if "bodyBase64" in route else route.get("body", "").encode()
        extra = [("Content-Type", route.get("contentType", "application/octet-stream"))] + validators
        if route.get("retryAfter"):
            extra.append(("Retry-After", str(route["retryAfter"])))
        if route.get("contentEncoding"):
            extra.append(("Content-Encoding", route["contentEncoding"]))
        with lock:
            log.append({"path": self.path, "status": status, "headers": headers})
        self.send(status, body, extra)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
