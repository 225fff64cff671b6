"""Clients that hold connections open as an attacker would, against one of flapd's ports; prints
what flapd did as JSON.

Usage: connection_abuse.py PORT KEY HELD
- holds HELD connections that send nothing but, on one of them, a header byte a second
  (a slow-header client), and notes how long flapd takes to close each;
- while they are held, asks GET /healthz, GET /v1/board with the key, the page and GET /v1/board
  with a wrong key on new connections (the port may be full: /healthz must still answer, and on
  the native API's port the owner's request takes the place of a held one);
- one keep-alive connection answered once and then left idle: how long until flapd closes it;
- one POST whose chunked body never ends (a chunk a second): its answer's status and how long
  it took.
"""
import json
import resource
import select
import socket
import sys
import threading
import time

port, key, held_count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
out = {}


def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def status_of(request):
    s = connect()
    try:
        s.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
        return int(answer.split(b" ")[1]) if answer else 0
    finally:
        s.close()


def wait_closed(sockets, limit, drip=None):
    """Seconds until each socket is closed by flapd (None: still open after `limit`)."""
    started = time.monotonic()
    closed = {}
    next_drip = started + 1
    while len(closed) < len(sockets) and time.monotonic() - started < limit:
        if drip is not None and time.monotonic() >= next_drip and drip not in closed:
            try:
                sockets[drip].send(b"X")
            except OSError:
                closed[drip] = time.monotonic() - started
            next_drip += 1
        readable, _, _ = select.select([s for i, s in enumerate(sockets) if i not in closed], [], [], 0.2)
        for s in readable:
            index = sockets.index(s)
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                closed[index] = time.monotonic() - started
    return [closed.get(i) for i in range(len(sockets))]


# An idle keep-alive connection, and a body that never ends, alongside.
idle = {}


def keep_alive():
    s = connect()
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    s.recv(4096)
    connected.wait()
    idle["closedAfter"] = wait_closed([s], 40)[0]


body = {}


def endless_body():
    s = connect()
    connected.wait()
    started = time.monotonic()
    s.sendall(f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
              "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n".encode())
    s.setblocking(False)
    answer = b""
    while time.monotonic() - started < 40 and b"\r\n" not in answer:
        try:
            s.send(b"1\r\n \r\n")
        except OSError:
            pass
        readable, _, _ = select.select([s], [], [], 1)
        if readable:
            try:
                chunk = s.recv(4096)
            except OSError:
                chunk = b""
            if not chunk:
                break
            answer += chunk
    body["status"] = int(answer.split(b" ")[1]) if answer else 0
    body["after"] = time.monotonic() - started
    s.close()


# These two connect first, so they are among those the port serves; then the held ones fill it.
connected = threading.Barrier(3)
threads = [threading.Thread(target=keep_alive), threading.Thread(target=endless_body)]
for thread in threads:
    thread.start()
connected.wait()
held = [connect() for _ in range(held_count)]
held[0].sendall(b"GET /v1/board HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and a byte a second from here on
time.sleep(0.3)
out["healthzWhileHeld"] = status_of(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
out["pageWhileHeld"] = status_of(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
out["wrongKeyWhileHeld"] = status_of(b"GET /v1/board HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\n\r\n")
# Last: the owner's connection, once closed, leaves a place free. It takes the place of a held
# connection that has said nothing for over two seconds (one newer may have its request on its way).
time.sleep(2.5)
out["boardWhileHeld"] = status_of(f"GET /v1/board HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\r\n".encode())
times = wait_closed(held, 40, drip=0)
for thread in threads:
    thread.join()
out["heldStillOpen"] = sum(1 for t in times if t is None)
out["heldClosedWithin"] = max((t for t in times if t is not None), default=None)
out["slowHeaderClosedAfter"] = times[0]
out["idleKeepAliveClosedAfter"] = idle.get("closedAfter")
out["endlessBodyStatus"] = body.get("status")
out["endlessBodyAnsweredAfter"] = body.get("after")
for s in held:
    s.close()
print(json.dumps(out))
