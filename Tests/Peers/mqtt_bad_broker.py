"""A broker that breaks the protocol on purpose, to test that flapd survives it.

Usage: mqtt_bad_broker.py PORT. Every connection is accepted with an MQTT 5 CONNACK; then the
n-th connection gets the n-th bad packet below and is read until the client closes it. After the
last one, connections are answered properly and kept. One line is printed per connection.
"""
import socket
import sys
import threading

BAD = [
    ("bad remaining length", bytes([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])),
    # PUBLISH, QoS 0, topic "t", properties said to be 50 bytes long but only 2 follow.
    ("truncated properties", bytes([0x30, 0x06, 0x00, 0x01]) + b"t" + bytes([50, 0x01, 0x01])),
    # PUBLISH, QoS 0, a topic of two bytes that are not UTF-8, no properties, payload "x".
    ("topic not UTF-8", bytes([0x30, 0x06, 0x00, 0x02, 0xC3, 0x28, 0x00]) + b"x"),
    # A SUBACK announcing 300 000 bytes: over the client's maximum packet size. (A PUBLISH that
    # large is not an error: flapd reads its head, skips its payload and refuses it with a receipt.)
    ("packet over the maximum size", bytes([0x90, 0xE0, 0xA7, 0x12]) + b"\0" * 1000),
]


def read_packet(conn):
    header = conn.recv(1)
    if not header:
        return None
    length, shift = 0, 0
    while True:
        byte = conn.recv(1)
        if not byte:
            return None
        length |= (byte[0] & 0x7F) << shift
        shift += 7
        if byte[0] < 0x80:
            break
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            return None
        body += chunk
    return header[0], body


def serve(conn, n):
    with conn:
        packet = read_packet(conn)
        if packet is None or packet[0] >> 4 != 1:
            return
        conn.sendall(bytes([0x20, 0x03, 0x00, 0x00, 0x00]))  # CONNACK v5: success, no properties
        if n < len(BAD):
            name, data = BAD[n]
            conn.sendall(data)
            print(f"connection {n + 1}: sent {name}", flush=True)
        else:
            print(f"connection {n + 1}: well behaved", flush=True)
        while True:
            try:
                packet = read_packet(conn)
            except OSError:  # reset: the client closed with bytes of ours unread
                packet = None
            if packet is None:
                break
            kind, body = packet
            try:
                if kind >> 4 == 8:  # SUBSCRIBE: SUBACK granting QoS 1 to each filter
                    conn.sendall(bytes([0x90, 3 + 1, body[0], body[1], 0x00, 0x01]))
                elif kind >> 4 == 12:  # PINGREQ
                    conn.sendall(bytes([0xD0, 0x00]))
            except OSError:  # the client has closed meanwhile
                break
        if n < len(BAD):
            print(f"connection {n + 1}: closed by the client", flush=True)


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen()
print("listening", flush=True)
count = 0
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn, count), daemon=True).start()
    count += 1
