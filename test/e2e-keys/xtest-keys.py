#!/usr/bin/python3
"""Presses keys on the X server by keycode through the XTEST extension, as a USB keyboard would.

Reads one JSON list per line from stdin: [[kind, keycode, delay_ms], ...], kind "down" or "up";
each event is held back by the X server itself for delay_ms after the one before (XTEST's own
delay), so the keys' times are the server's, whatever this process or the machine is doing. It
answers "done" once the server has handled the whole line. The first line may be
{"focus": [x, y]}: the pointer moves there (with no window manager, the keys go to the window
under the pointer).

Debian's python3-xlib (scripts/install-test-deps.sh).
"""
import json
import sys

from Xlib import X, display
from Xlib.ext import xtest

connection = display.Display()
for line in sys.stdin:
    request = json.loads(line)
    if isinstance(request, dict) and "focus" in request:
        x, y = request["focus"]
        xtest.fake_input(connection, X.MotionNotify, x=x, y=y)
        connection.set_input_focus(X.PointerRoot, X.RevertToPointerRoot, X.CurrentTime)
    else:
        for kind, keycode, delay in request:
            xtest.fake_input(connection, X.KeyPress if kind == "down" else X.KeyRelease, keycode, time=int(delay))
    connection.sync()
    sys.stdout.write("done\n")
    sys.stdout.flush()
