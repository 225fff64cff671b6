"""Sunrise and sunset from astral (PyPI), an independent implementation of NOAA's solar
equations, for the tests to compare flapd's with.

Reads JSON lines {"latitude", "longitude", "date": "YYYY-MM-DD", "offset": HOURS} and answers each
with {"sunrise": EPOCH or null, "sunset": EPOCH or null}: the events of that civil date in a zone
`offset` hours from UTC (null when the sun does not rise or set that day).
"""
import datetime
import json
import sys

from astral import Observer
from astral.sun import sunrise, sunset

for line in sys.stdin:
    asked = json.loads(line)
    observer = Observer(latitude=asked["latitude"], longitude=asked["longitude"])
    day = datetime.date.fromisoformat(asked["date"])
    zone = datetime.timezone(datetime.timedelta(hours=asked["offset"]))
    answer = {}
    for name, event in (("sunrise", sunrise), ("sunset", sunset)):
        try:
            answer[name] = event(observer, day, tzinfo=zone).timestamp()
        except ValueError:  # the sun stays above or below the horizon all day
            answer[name] = None
    print(json.dumps(answer), flush=True)
