"""A stand-in for flapd whose first answer to POST /v1/messages is lost: it reads the request and
closes the connection without answering (as a power cut or a dropped Wi-Fi link would), then
answers the next one. Prints the port on its first line, then, after the second request or 30 s,
the Idempotency-Key headers it saw as a JSON list.

Usage: lossy_flapd.py
"""
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

keys = []
done = threading.Event()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        keys.append(self.headers.get("Idempotency-Key"))
        if len(keys) == 1:
            # The answer is lost: the connection ends with nothing said.
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        body = json.dumps({"id": "m-0123456789abcdef0123456789abcdef", "status": "accepted", "warnings": []}).encode()
        self.send_response(202)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        done.set()

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
done.wait(120)
time.sleep(0.2)
print(json.dumps(keys), flush=True)
server.shutdown()
