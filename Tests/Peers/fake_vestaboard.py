"""A Vestaboard for the tests: its Local API and its cloud APIs (the Cloud API and the older
Read/Write API) as their documentation and the `vesta` client show them, with faults to switch on.

Usage: fake_vestaboard.py [--local-key KEY] [--token TOKEN] [--rw-key KEY] [--enablement TOKEN]
Prints "listening PORT" once it accepts connections on 127.0.0.1.

The board (6 x 22 codes; 3 x 15 with --model note; any with --size 3x30) is shared by every API:
- Local API: POST /local-api/enablement (X-Vestaboard-Local-Api-Enablement-Token) answers
  {"message", "apiKey"}; GET /local-api/message answers {"message": rows}; POST /local-api/message
  takes rows, or {"characters": rows, "strategy", "step_size", "step_interval_ms"}, and answers 201.
  A wrong or missing key gets 401.
- Cloud API (X-Vestaboard-Token) and Read/Write API (X-Vestaboard-Read-Write-Key), both at "/":
  GET answers {"currentMessage": {"layout": "<rows as a JSON string>", "id"}}; POST takes
  {"text"} or {"characters"} (the Read/Write API: bare rows too), "forced" optional. A blank board
  is refused (400). A write within 15 s of the last one shown is answered {"status": "ok"} and
  dropped, unless forced, as the service does. The Read/Write API answers 405 to a write equal to
  the board ("Message fingerprint matches ..."). GET/PUT /transition.

Control, for the tests (no key): POST /_control/faults {"faults": [...]} queues faults, each
used by one request to a board API, in order: "401", "400", "403", "500", "429:SECONDS" (with
Retry-After), "slow:SECONDS" (answers after that long), "drop" (closes the connection unanswered),
"hang:SECONDS" (closes it unanswered after that long: a board that went away mid-write).
POST /_control/board {"rows": rows} writes the board as someone else would. GET /_control/log
lists the requests the board APIs got (api, method, body, status, shown). POST /_control/reset.
"""
import argparse
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import vesta

ROWS, COLUMNS = 6, 22
state_lock = threading.Lock()
state = {
    "board": [[0] * COLUMNS for _ in range(ROWS)],
    "message_id": 0,
    "last_shown": None,  # time.monotonic() of the last cloud write shown
    "faults": [],
    "log": [],
    "transition": {"transition": "classic", "transitionSpeed": "fast"},
}


def valid_rows(rows):
    return (isinstance(rows, list) and len(rows) == ROWS
            and all(isinstance(r, list) and len(r) == COLUMNS and all(isinstance(c, int) and 0 <= c <= 71 for c in r) for r in rows))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeVestaboard/1.0"

    def log_message(self, *args):
        pass

    def answer(self, status, body=None, headers=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return ValueError

    def which_api(self):
        if self.path.startswith("/local-api/"):
            return "local"
        if self.headers.get("X-Vestaboard-Token") is not None:
            return "cloud"
        if self.headers.get("X-Vestaboard-Read-Write-Key") is not None:
            return "rw"
        return "cloud"

    def record(self, api, body, status, shown):
        with state_lock:
            state["log"].append({"api": api, "method": self.command, "path": self.path, "body": body,
                                 "status": status, "shown": shown, "at": time.time()})

    def fault(self, api, body):
        """Applies the next queued fault; True if the request was answered by it."""
        with state_lock:
            fault = state["faults"].pop(0) if state["faults"] else None
        if fault is None:
            return False
        kind, _, arg = fault.partition(":")
        if kind == "slow":
            time.sleep(float(arg))
            return False
        if kind == "hang":
            time.sleep(float(arg))
            kind = "drop"
        if kind == "drop":
            self.record(api, body, "dropped", False)
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return True
        if kind == "429":
            self.record(api, body, 429, False)
            self.answer(429, {"message": "Too Many Requests"}, {"Retry-After": arg or "1"})
            return True
        status = int(kind)
        self.record(api, body, status, False)
        self.answer(status, {"message": {401: "Unauthorized", 400: "Bad Request", 403: "Forbidden"}.get(status, "Internal Server Error")})
        return True

    def authorized(self, api):
        keys = self.server.keys
        if api == "local":
            return self.headers.get("X-Vestaboard-Local-Api-Key") == keys["local"]
        if api == "cloud":
            return self.headers.get("X-Vestaboard-Token") == keys["token"]
        return self.headers.get("X-Vestaboard-Read-Write-Key") == keys["rw"]

    def do_GET(self):
        if self.path == "/_control/log":
            with state_lock:
                return self.answer(200, {"log": state["log"], "board": state["board"]})
        api = self.which_api()
        if self.fault(api, None):
            return
        if not self.authorized(api):
            self.record(api, None, 401, False)
            return self.answer(401, {"message": "Unauthorized"})
        with state_lock:
            board, message_id = [r[:] for r in state["board"]], state["message_id"]
        if api == "local" and self.path == "/local-api/message":
            self.record(api, None, 200, False)
            return self.answer(200, {"message": board})
        if api != "local" and self.path in ("/", ""):
            self.record(api, None, 200, False)
            return self.answer(200, {"currentMessage": {"layout": json.dumps(board), "id": str(message_id)}})
        if api == "cloud" and self.path == "/transition":
            return self.answer(200, state["transition"])
        self.answer(404, {"message": "Not Found"})

    def do_PUT(self):
        api = self.which_api()
        body = self.body()
        if api == "cloud" and self.path == "/transition" and self.authorized(api):
            if isinstance(body, dict) and body.get("transition") in ("classic", "wave", "drift", "curtain") and body.get("transitionSpeed") in ("gentle", "fast"):
                with state_lock:
                    state["transition"] = {"transition": body["transition"], "transitionSpeed": body["transitionSpeed"]}
                return self.answer(200, state["transition"])
            return self.answer(400, {"message": "Bad Request"})
        self.answer(404, {"message": "Not Found"})

    def do_POST(self):
        body = self.body()
        if self.path.startswith("/_control/"):
            return self.control(body)
        api = self.which_api()
        if self.path == "/local-api/enablement":
            if self.headers.get("X-Vestaboard-Local-Api-Enablement-Token") == self.server.keys["enablement"]:
                return self.answer(200, {"message": "Local API enabled", "apiKey": self.server.keys["local"]})
            return self.answer(401, {"message": "Invalid enablement token"})
        if self.fault(api, body):
            return
        if not self.authorized(api):
            self.record(api, body, 401, False)
            return self.answer(401, {"message": "Unauthorized"})
        if api == "local":
            return self.write_local(body)
        self.write_cloud(api, body)

    def write_local(self, body):
        rows = body.get("characters") if isinstance(body, dict) else body
        if self.path != "/local-api/message" or not valid_rows(rows):
            self.record("local", body, 400, False)
            return self.answer(400, {"message": "Bad Request"})
        with state_lock:
            state["board"] = rows
            state["message_id"] += 1
        self.record("local", body, 201, True)
        self.answer(201, {"message": "Message sent"})

    def write_cloud(self, api, body):
        rows = None
        if isinstance(body, dict) and isinstance(body.get("text"), str):
            try:
                rows = vesta.encode_text(body["text"], align="center", valign="middle")
            except Exception:
                rows = None
        elif isinstance(body, dict):
            rows = body.get("characters")
        elif api == "rw":
            rows = body
        if not valid_rows(rows) or all(c == 0 for r in rows for c in r):
            self.record(api, body, 400, False)
            return self.answer(400, {"message": "Bad Request"})
        forced = isinstance(body, dict) and body.get("forced") is True
        now = time.monotonic()
        with state_lock:
            if api == "rw" and rows == state["board"]:
                shown, status = False, 405
            elif not forced and state["last_shown"] is not None and now - state["last_shown"] < 15:
                shown, status = False, 200  # the service's limit: answered, never shown
            else:
                state["board"] = rows
                state["message_id"] += 1
                state["last_shown"] = now
                shown, status = True, 200
            message_id = state["message_id"]
        self.record(api, body, status, shown)
        if status == 405:
            return self.answer(405, {"status": "error", "message": "Message fingerprint matches the message that is already displayed on the board"})
        self.answer(200, {"status": "ok", "id": str(message_id), "created": int(time.time() * 1000)})

    def control(self, body):
        with state_lock:
            if self.path == "/_control/faults":
                state["faults"].extend(body.get("faults", []))
            elif self.path == "/_control/board":
                state["board"] = body["rows"]
                state["message_id"] += 1
                state["last_shown"] = time.monotonic()
            elif self.path == "/_control/reset":
                state["faults"].clear()
                state["log"].clear()
                state["last_shown"] = None
            else:
                return self.answer(404, {"message": "Not Found"})
        self.answer(200, {"ok": True})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local-key", default="local-key")
    parser.add_argument("--token", default="cloud-token")
    parser.add_argument("--rw-key", default="rw-key")
    parser.add_argument("--enablement", default="enablement-token")
    parser.add_argument("--port", type=int, default=0, help="0: a free one (the soak benchmark restarts it on the same port)")
    parser.add_argument("--model", choices=["flagship", "note"], default="flagship", help="note: a Vestaboard Note, 3 x 15")
    parser.add_argument("--size", help="ROWSxCOLUMNS: a board of that size, as the cloud sees an array of Notes (3x30)")
    args = parser.parse_args()
    global ROWS, COLUMNS
    ROWS, COLUMNS = (3, 15) if args.model == "note" else (6, 22)
    if args.size:
        ROWS, COLUMNS = (int(n) for n in args.size.lower().split("x"))
    state["board"] = [[0] * COLUMNS for _ in range(ROWS)]
    ThreadingHTTPServer.allow_reuse_address = True
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.keys = {"local": args.local_key, "token": args.token, "rw": args.rw_key, "enablement": args.enablement}
    print(f"listening {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
