"""Dashboards with the viewer key holding every connection of flapd's native API port, as a
flood would; prints what the household got meanwhile, as JSON.

Usage: stream_flood.py PORT VIEWER_KEY OWNER_KEY MEMBER_KEY STREAMS HELD
- opens STREAMS event streams (GET /v1/events) with the viewer key and counts their answers;
- keeps those answered 200 open, and holds HELD more keep-alive connections, each having read
  the board once with the viewer key (the port is full of the viewer's connections then);
- meanwhile, on new connections: the owner's GET /v1/board and /v1/status, a member's GET
  /v1/board.
"""
import json
import resource
import socket
import sys

port, viewer, owner, member = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
streams_count, held_count = int(sys.argv[5]), int(sys.argv[6])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def request(s, path, key):
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\r\n".encode())


def head(s):
    """The answer's status and headers (its body left unread); 0 when the connection closed first."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            return 0, answer
        answer += chunk
    return int(answer.split(b" ")[1]), answer


def whole(s):
    """The status of an answer read to its end (Content-Length)."""
    status, answer = head(s)
    if status == 0:
        return 0
    headers, _, body = answer.partition(b"\r\n\r\n")
    length = 0
    for line in headers.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(body) < length:
        chunk = s.recv(4096)
        if not chunk:
            break
        body += chunk
    return status


def once(path, key):
    s = connect()
    try:
        request(s, path, key)
        return whole(s)
    except OSError:
        return 0
    finally:
        s.close()


out = {"streams": {}, "held": {}}
streams = []
for _ in range(streams_count):
    s = connect()
    request(s, "/v1/events", viewer)
    status, _ = head(s)
    out["streams"][str(status)] = out["streams"].get(str(status), 0) + 1
    if status == 200:
        streams.append(s)
    else:
        s.close()
held = []
for _ in range(held_count):
    s = connect()
    request(s, "/v1/board", viewer)
    try:
        status = whole(s)
    except OSError:
        status = 0
    out["held"][str(status)] = out["held"].get(str(status), 0) + 1
    if status == 200:
        held.append(s)
    else:
        s.close()
out["ownerBoard"] = once("/v1/board", owner)
out["ownerStatus"] = once("/v1/status", owner)
out["memberBoard"] = once("/v1/board", member)
for s in streams + held:
    s.close()
print(json.dumps(out))
