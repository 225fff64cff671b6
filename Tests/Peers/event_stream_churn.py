"""Pages that watch the boards and leave: opens N event streams (GET /v1/events) at once, reads
each one's first event, then closes them all normally (FIN), ROUNDS times.

Usage: event_stream_churn.py PORT KEY N ROUNDS
Prints "closed N*ROUNDS".
"""
import socket
import sys

port, key, count, rounds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
request = f"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n".encode()
closed = 0
# Opened eight at a time, each eight's first events read before the next: a connection counts
# as a stranger's until flapd has read its request, and a client network may hold only 16 of
# those (more are let go), which a busy flapd slow to read 120 requests at once could reach.
batch = 8
for _ in range(rounds):
    sockets = []
    while len(sockets) < count:
        opened = []
        for _ in range(min(batch, count - len(sockets))):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(request)
            opened.append(s)
        for s in opened:
            seen = b""
            while b"event:" not in seen:
                chunk = s.recv(4096)
                if not chunk:
                    break
                seen += chunk
        sockets += opened
    for s in sockets:
        s.close()
        closed += 1
print(f"closed {closed}")
