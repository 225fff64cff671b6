"""A calendar's occurrences by icalendar and recurring-ical-events (PyPI), the implementation the
tests check flapd's RRULE, EXDATE, RECURRENCE-ID, time-zone and all-day reading against.

Reads one JSON object {"ics": TEXT or "ics_base64": BYTES, "from": EPOCH, "to": EPOCH, "zone": "Europe/Berlin"}
on stdin
and prints a JSON list of {"title", "start", "end", "allDay"} (instants as epoch seconds), the
occurrences overlapping [from, to), sorted by start then title. Floating times and all-day dates
are in `zone`, as flapd reads them in the board's zone.
"""
import base64
import datetime
import json
import re
import sys
import zoneinfo

import icalendar
import recurring_ical_events

asked = json.load(sys.stdin)
zone = zoneinfo.ZoneInfo(asked["zone"])
if "ics_base64" in asked:
    # Unfolded as bytes before decoding (RFC 5545 §3.1 folds octets, and some servers fold inside a
    # character), as icalendar would not; the rest is icalendar's own reading.
    data = base64.b64decode(asked["ics_base64"])
    data = re.sub(rb"(\r\n|\n|\r)[ \t]", b"", data.removeprefix(b"\xef\xbb\xbf"))
    text = data.decode("utf-8")
else:
    text = asked["ics"]
calendar = icalendar.Calendar.from_ical(text)
start = datetime.datetime.fromtimestamp(asked["from"], tz=zone)
end = datetime.datetime.fromtimestamp(asked["to"], tz=zone)


def instant(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
        return value.timestamp()
    return datetime.datetime.combine(value, datetime.time(), tzinfo=zone).timestamp()


found = []
for event in recurring_ical_events.of(calendar).between(start, end):
    if str(event.get("STATUS", "")).upper() == "CANCELLED":
        continue
    begins = event["DTSTART"].dt
    ends = event["DTEND"].dt if "DTEND" in event else None
    if ends is None:
        ends = begins + (event["DURATION"].dt if "DURATION" in event else
                         (datetime.timedelta(days=1) if not isinstance(begins, datetime.datetime) else datetime.timedelta()))
    found.append({"title": str(event.get("SUMMARY", "")), "start": instant(begins), "end": instant(ends),
                  "allDay": not isinstance(begins, datetime.datetime)})
found.sort(key=lambda o: (o["start"], o["title"]))
print(json.dumps(found))
