"""A tiny stand-in for an MQTT broker that speaks only 3.1.1, to test flapd's fallback.

Usage: mqtt311_only_broker.py PORT. It answers an MQTT 5 CONNECT with CONNACK reason 0x84
(unsupported protocol version) and closes; it accepts a 3.1.1 CONNECT (CONNACK 0), answers
SUBSCRIBE with SUBACK and PINGREQ with PINGRESP, and prints one line per CONNECT it saw.
"""
import socket
import sys
import threading


def read_packet(conn):
    header = conn.recv(1)
    if not header:
        return None, b""
    length, shift = 0, 0
    while True:
        byte = conn.recv(1)[0]
        length |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            break
        body += chunk
    return header[0], body


def serve(conn):
    with conn:
        while True:
            kind, body = read_packet(conn)
            if kind is None:
                return
            if kind >> 4 == 1:  # CONNECT: 2-byte name length, "MQTT", level
                level = body[6]
                print(f"connect level {level}", flush=True)
                if level == 5:
                    conn.sendall(bytes([0x20, 0x03, 0x00, 0x84, 0x00]))
                    return
                conn.sendall(bytes([0x20, 0x02, 0x00, 0x00]))
            elif kind >> 4 == 8:  # SUBSCRIBE: answer with a SUBACK granting QoS 1 to each filter
                packet_id = body[0:2]
                count, i = 0, 2
                while i < len(body):
                    n = body[i] << 8 | body[i + 1]
                    i += 2 + n + 1
                    count += 1
                conn.sendall(bytes([0x90, 2 + count]) + packet_id + bytes([1] * count))
            elif kind >> 4 == 12:  # PINGREQ
                conn.sendall(bytes([0xD0, 0x00]))
            elif kind >> 4 == 3 and (kind >> 1) & 3 == 1:  # PUBLISH QoS 1: PUBACK
                n = body[0] << 8 | body[1]
                conn.sendall(bytes([0x40, 0x02]) + body[2 + n:4 + n])


def main():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", int(sys.argv[1])))
    server.listen()
    print("listening", flush=True)
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
