"""An independent MCP client (PyPI's `mcp`, the reference Python SDK) against flapd.

Usage:
  mcp_client_check.py http URL KEY SCENARIO      Streamable HTTP at URL (…/mcp), bearer KEY
  mcp_client_check.py stdio FLAPCTL SCENARIO     `FLAPCTL mcp` on stdin/stdout (FLAPD_URL and
                                                 FLAPD_API_KEY in the environment find flapd)
  mcp_client_check.py refusals URL KEY           what /mcp answers without the key, with a wrong
                                                 one, from a foreign Origin, for a foreign Host
  mcp_client_check.py timing URL KEY N           the median send_message round trip of N, in ms

SCENARIO: "board" (tools listed, a message sent and seen on the board, a preview refused at its
position, resources, a message for later cancelled, bad arguments) or "reading" (every tool that
only reads, called once; their texts printed for the caller to search).
Prints one JSON object of what was seen.
"""
import asyncio
import base64
import datetime
import json
import os
import statistics
import sys
import time

import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client


def text_of(result):
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def call(session, name, arguments=None):
    result = await session.call_tool(name, arguments or {})
    return {"isError": bool(result.is_error), "text": text_of(result), "structured": result.structured_content}


async def board_scenario(session):
    seen = {}
    capabilities = session.initialize_result.capabilities
    seen["subscribeOffered"] = bool(capabilities.resources and capabilities.resources.subscribe)
    if seen["subscribeOffered"]:
        await session.subscribe_resource("flapd://board.txt")
        # Only resources there are: a made-up one under flapd://board/ is refused, so a session
        # cannot pile up subscriptions.
        try:
            await session.subscribe_resource("flapd://board/" + "x" * 60000 + ".png")
            seen["madeUpSubscriptionRefused"] = False
        except Exception as error:  # the SDK raises McpError with flapd's message
            seen["madeUpSubscriptionRefused"] = "no resource" in str(error) and len(str(error)) < 1000
    tools = await session.list_tools()
    seen["tools"] = sorted(tool.name for tool in tools.tools)
    seen["schemas"] = {tool.name: tool.input_schema for tool in tools.tools}

    sent = await call(session, "send_message", {"text": "HELLO FROM MCP", "sender": "mcp-check"})
    seen["sent"] = sent
    seen["boardReached"] = False
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        board = await call(session, "read_board")
        panel = (board["structured"] or {}).get("panels", [{}])[0]
        if any("HELLO FROM MCP" in row for row in panel.get("text", [])) and not panel.get("moving"):
            seen["boardReached"] = True
            seen["board"] = board
            break
        await asyncio.sleep(0.1)

    if seen["subscribeOffered"]:
        # The board came to rest on the message: the session's event stream said so.
        seen["boardUpdatedNotice"] = False
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not seen["boardUpdatedNotice"]:
            seen["boardUpdatedNotice"] = "flapd://board.txt" in UPDATED
            await asyncio.sleep(0.1)
    seen["preview"] = await call(session, "preview_layout", {"text": "PRICE 5€"})
    seen["previewFits"] = await call(session, "preview_layout", {"text": "SEE YOU SOON", "align": "left"})

    resources = await session.list_resources()
    seen["resources"] = sorted(str(resource.uri) for resource in resources.resources)
    text = await session.read_resource("flapd://board.txt")
    seen["resourceText"] = text.contents[0].text
    picture = await session.read_resource("flapd://board.png")
    png = base64.b64decode(picture.contents[0].blob)
    seen["picture"] = {"mimeType": picture.contents[0].mime_type, "signature": png[:8].hex(),
                       "width": int.from_bytes(png[16:20], "big"), "height": int.from_bytes(png[20:24], "big")}

    later = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=3)).isoformat(timespec="seconds")
    scheduled = await call(session, "send_message", {"text": "LATER", "sender": "mcp-later", "notBefore": later})
    seen["scheduled"] = scheduled
    message_id = (scheduled["structured"] or {}).get("id")
    seen["waitingBefore"] = [m["id"] for m in (await call(session, "list_scheduled"))["structured"]["scheduled"]]
    seen["cancel"] = await call(session, "cancel_scheduled", {"id": message_id})
    seen["waitingAfter"] = [m["id"] for m in (await call(session, "list_scheduled"))["structured"]["scheduled"]]
    seen["cancelledReceipt"] = await call(session, "read_receipts", {"id": message_id})
    seen["cancelAgain"] = await call(session, "cancel_scheduled", {"id": message_id})

    # A retry with the same idempotency key, after something newer: the first answer, nothing sent.
    key = f"mcp-{time.time_ns()}"
    seen["keyed"] = await call(session, "send_message", {"text": "KEYED", "sender": "mcp-keyed", "idempotencyKey": key})
    seen["between"] = await call(session, "send_message", {"text": "BETWEEN", "sender": "mcp-keyed"})
    seen["keyedAgain"] = await call(session, "send_message", {"text": "KEYED", "sender": "mcp-keyed", "idempotencyKey": key})
    seen["keyReused"] = await call(session, "send_message", {"text": "OTHER", "sender": "mcp-keyed", "idempotencyKey": key})

    seen["unknownArgument"] = await call(session, "send_message", {"text": "HI", "colour": "red"})
    seen["wrongType"] = await call(session, "set_sound", {"volume": "loud"})
    seen["badCodes"] = await call(session, "send_message", {"codes": [[1, 2, 999]]})
    seen["vbml"] = await call(session, "send_message", {"sender": "vbml", "vbml": {"props": {"who": "MCP"}, "components": [{"template": "HI {{who}}"}]}})
    seen["badVBML"] = await call(session, "send_message", {"vbml": {"components": [{"template": "X", "style": {"width": 30}}]}})
    seen["alert"] = await call(session, "send_message", {"text": "DOOR OPEN", "sender": "door", "duration": 60})
    seen["alertSlots"] = [(slot["sender"], slot.get("duration")) for slot in (await call(session, "list_slots"))["structured"]["slots"]]
    seen["alertTooLong"] = await call(session, "send_message", {"text": "DOOR OPEN", "duration": 86400})
    seen["missing"] = await call(session, "clear_slot", {})
    return seen


READING_TOOLS = ["read_board", "list_slots", "read_receipts", "list_quick_messages", "list_schedules", "list_scheduled",
                 "status", "get_sound", "room"]


async def reading_scenario(session):
    tools = await session.list_tools()
    seen = {"tools": sorted(tool.name for tool in tools.tools), "answers": {}}
    for name in READING_TOOLS:
        seen["answers"][name] = await call(session, name)
    text = await session.read_resource("flapd://board.txt")
    seen["answers"]["board.txt"] = {"text": text.contents[0].text}
    return seen


SCENARIOS = {"board": board_scenario, "reading": reading_scenario}


UPDATED = []


async def heard(message):
    """Notifications from the server: the resources it says changed."""
    if isinstance(message, types.ResourceUpdatedNotification):
        UPDATED.append(str(message.params.uri))


async def in_session(transport, scenario):
    async with transport as (read, write):
        async with ClientSession(read, write, message_handler=heard) as session:
            info = await session.initialize()
            seen = await SCENARIOS[scenario](session)
            seen["server"] = {"name": info.server_info.name, "protocolVersion": info.protocol_version}
            return seen


async def over_http(url, key, scenario):
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as client:
        return await in_session(streamable_http_client(url, http_client=client), scenario)


async def over_stdio(flapctl, scenario):
    # The SDK starts the server with a small default environment: flapd's address and key are given.
    environment = {name: os.environ[name] for name in ("FLAPD_URL", "FLAPD_API_KEY") if name in os.environ}
    return await in_session(stdio_client(StdioServerParameters(command=flapctl, args=["mcp"], env=environment)), scenario)


async def refusals(url, key):
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "check", "version": "1"}}}
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    seen = {}
    async with httpx2.AsyncClient() as client:
        for name, extra in [("noKey", {}), ("wrongKey", {"Authorization": "Bearer not-the-key"}),
                            ("foreignOrigin", {"Authorization": f"Bearer {key}", "Origin": "http://evil.example"}),
                            ("foreignHost", {"Authorization": f"Bearer {key}", "Host": "evil.example"}),
                            ("allowedHost", {"Authorization": f"Bearer {key}", "Host": "flapd.example"}),
                            ("ownOrigin", {"Authorization": f"Bearer {key}", "Origin": url.rsplit("/mcp", 1)[0]})]:
            answer = await client.post(url, json=body, headers={**base, **extra})
            seen[name] = {"status": answer.status_code, "wwwAuthenticate": answer.headers.get("www-authenticate"),
                          "body": answer.text[:300]}
        answer = await client.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                                   headers={**base, "Authorization": f"Bearer {key}", "Mcp-Session-Id": "no-such-session"})
        seen["unknownSession"] = {"status": answer.status_code, "body": answer.text[:300]}
        answer = await client.post(url, json=body, headers={**base, "Authorization": f"Bearer {key}", "Accept": "text/event-stream"})
        seen["streamOnly"] = {"status": answer.status_code, "contentType": answer.headers.get("content-type"), "body": answer.text[:120]}
        answer = await client.get(url, headers={"Authorization": f"Bearer {key}", "Accept": "text/event-stream"})
        seen["eventStream"] = {"status": answer.status_code}
    # The SDK's own client with a wrong key: it must fail, not hang or start OAuth.
    try:
        async with httpx2.AsyncClient(headers={"Authorization": "Bearer not-the-key"}) as client:
            async with streamable_http_client(url, http_client=client) as (read, write):
                async with ClientSession(read, write) as session:
                    await asyncio.wait_for(session.initialize(), 10)
        seen["sdkWrongKey"] = "connected"
    except BaseException as error:  # an ExceptionGroup from the transport's task group
        seen["sdkWrongKey"] = f"refused: {type(error).__name__}: {error}"[:300]
    return seen


async def timing(url, key, count):
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                times = []
                for k in range(count):
                    start = time.perf_counter()
                    result = await session.call_tool("send_message", {"text": f"ROUND {k}", "sender": f"timing-{k}"})
                    times.append((time.perf_counter() - start) * 1000)
                    assert not result.is_error, text_of(result)  # each round its own sender: 50 an hour each
                return {"count": count, "medianMs": statistics.median(times), "minMs": min(times), "maxMs": max(times)}


def main():
    mode = sys.argv[1]
    if mode == "http":
        seen = asyncio.run(over_http(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif mode == "stdio":
        seen = asyncio.run(over_stdio(sys.argv[2], sys.argv[3]))
    elif mode == "refusals":
        seen = asyncio.run(refusals(sys.argv[2], sys.argv[3]))
    else:
        seen = asyncio.run(timing(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    print(json.dumps(seen, default=str))


if __name__ == "__main__":
    main()
