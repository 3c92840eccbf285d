"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (standard library only).

Chromium reads commands from file descriptor 3 and writes answers and events to 4, each JSON
message ended by a NUL byte. One page target is attached with flattened sessions.

    with Browser() as browser:
        page = browser.new_page(width=1280, height=720)
        page.goto("http://127.0.0.1:8080/")
        print(page.evaluate("document.title"))
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("no Chromium found: apt-get install -y chromium")


class CDPError(RuntimeError):
    pass


class Browser:
    def __init__(self, chromium=None, extra_args=()):
        self.chromium = chromium or find_chromium()
        self.profile = tempfile.mkdtemp(prefix="viewer-check-")
        to_chrome_r, self._to_chrome_w = os.pipe()
        self._from_chrome_r, from_chrome_w = os.pipe()

        def wire_fds():
            # Copy both ends out of the way first, so putting one on 3 or 4 cannot clobber the other.
            os.dup2(to_chrome_r, 100)
            os.dup2(from_chrome_w, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)
            os.close(100)
            os.close(101)

        args = [
            self.chromium, "--headless", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
            "--hide-scrollbars", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            f"--user-data-dir={self.profile}", *extra_args,
        ]
        if os.geteuid() == 0:
            args.append("--no-sandbox")
        self.log = open(os.path.join(self.profile, "chromium.log"), "w")
        self.proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=wire_fds, close_fds=False,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next_id = 0
        self._lock = threading.Lock()
        self._waiters = {}
        self._listeners = []
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self.send("Target.setDiscoverTargets", {"discover": False}, timeout=30)

    # -- transport ---------------------------------------------------------------------------

    def _read_loop(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_chrome_r, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self._closed = True
                with self._lock:
                    for event, _ in self._waiters.values():
                        event.set()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        waiter = self._waiters.get(message["id"])
                    if waiter:
                        waiter[1].append(message)
                        waiter[0].set()
                else:
                    for listener in list(self._listeners):
                        listener(message)

    def send(self, method, params=None, session=None, timeout=60):
        with self._lock:
            self._next_id += 1
            mid = self._next_id
            event = threading.Event()
            self._waiters[mid] = (event, [])
        message = {"id": mid, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome_w, json.dumps(message).encode() + b"\0")
        if not event.wait(timeout):
            raise CDPError(f"{method}: no answer in {timeout} s")
        with self._lock:
            _, box = self._waiters.pop(mid)
        if not box:
            raise CDPError(f"{method}: the browser closed")
        answer = box[0]
        if "error" in answer:
            raise CDPError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def on(self, listener):
        self._listeners.append(listener)

    # -- pages -------------------------------------------------------------------------------

    def new_page(self, width=1280, height=720, mobile=False, scale=1):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, width, height, mobile, scale)
        page.target = target
        return page

    def close(self):
        try:
            if not self._closed:
                self.send("Browser.close", timeout=5)
        except CDPError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """One tab: console errors, exceptions and failed loads are collected in `problems`."""

    def __init__(self, browser, session, width, height, mobile, scale):
        self.browser = browser
        self.session = session
        self.problems = []
        self.loaded = threading.Event()
        browser.on(self._event)
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        # A tab in the background gets no animation frames: make this one the visible, focused one.
        self.send("Page.bringToFront")
        self.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.resize(width, height, mobile, scale)

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def close(self):
        """Closes the tab (so that it draws no more frames while later checks measure)."""
        try:
            self.browser.send("Target.closeTarget", {"targetId": self.target}, timeout=10)
        except CDPError:
            pass

    def _event(self, message):
        if message.get("sessionId") != self.session:
            return
        method, params = message.get("method"), message.get("params", {})
        if method == "Page.loadEventFired":
            self.loaded.set()
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.problems.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            text = d.get("exception", {}).get("description") or d.get("text")
            self.problems.append(f"uncaught exception: {text}")
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") == "error":
                self.problems.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())

    def resize(self, width, height, mobile=False, scale=1):
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile,
            "screenWidth": width, "screenHeight": height,
        })
        self.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5 if mobile else 1})

    def emulate_media(self, features):
        self.send("Emulation.setEmulatedMedia", {"features": [{"name": k, "value": v} for k, v in features.items()]})

    def goto(self, url, timeout=30):
        self.loaded.clear()
        answer = self.send("Page.navigate", {"url": url})
        if answer.get("errorText"):
            raise CDPError(f"navigate {url}: {answer['errorText']}")
        if not self.loaded.wait(timeout):
            raise CDPError(f"{url}: no load event in {timeout} s")

    def evaluate(self, expression, timeout=60):
        answer = self.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True,
        }, timeout=timeout)
        if "exceptionDetails" in answer:
            d = answer["exceptionDetails"]
            raise CDPError(f"evaluate: {d.get('exception', {}).get('description') or d.get('text')}")
        return answer.get("result", {}).get("value")

    def wait_for(self, expression, timeout=30, interval=0.1):
        """Polls `expression` until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CDPError(f"timed out after {timeout} s waiting for {expression}")
            time.sleep(interval)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def key(self, key, code=None, key_code=0, modifiers=0, text=None):
        base = {"key": key, "code": code or key, "windowsVirtualKeyCode": key_code, "modifiers": modifiers}
        self.send("Input.dispatchKeyEvent", {**base, "type": "keyDown", "text": text} if text else {**base, "type": "rawKeyDown"})
        self.send("Input.dispatchKeyEvent", {**base, "type": "keyUp"})

    def mouse(self, kind, x, y, button="left", buttons=1, delta_y=0, modifiers=0):
        params = {"type": kind, "x": x, "y": y, "button": button, "buttons": buttons, "clickCount": 1, "modifiers": modifiers}
        if kind == "mouseWheel":
            params.update({"deltaX": 0, "deltaY": delta_y, "button": "none", "buttons": 0})
        self.send("Input.dispatchMouseEvent", params)

    def touch(self, kind, points):
        self.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})
