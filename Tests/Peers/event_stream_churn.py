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
for _ in range(rounds):
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(request)
        sockets.append(s)
    for s in sockets:
        seen = b""
        while b"event:" not in seen:
            chunk = s.recv(4096)
            if not chunk:
                break
            seen += chunk
    for s in sockets:
        s.close()
        closed += 1
print(f"closed {closed}")
