#!/usr/bin/env python3
"""Drives Debian's headless Chromium through the DevTools protocol on a pipe (--remote-debugging-pipe), for the
console's browser tests: no WebSocket library, no package beyond Python's standard library.

    browser-driver.py CHROMIUM < steps.json > results.json

Steps, run in order in one browser profile (so cookies last from step to step); each gives one result:
  {"goto": URL}                       navigate and wait for the page: result {"url"}
  {"fill": [CSS, TEXT]}               set an input's value: result true, or an error when nothing matches
  {"click": CSS}                      click a button that submits a form, and wait for the next page: result {"url"}
  {"eval": JS}                        evaluate in the page: result its JSON value
  {"html": HTML}                      replace the page's document with HTML, keeping its origin: result true
  {"screenshot": PATH, "width": W, "eval": JS}
                                      the whole page at that width, as a PNG file, and JS (optional) evaluated at
                                      that width: result {"path", "value"}
Results are printed as one JSON list; a step that fails ends the run with {"error"} as its result.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

TIMEOUT = 30


class Browser:
    def __init__(self, chromium):
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="chromium-console-")
        arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
            "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "--window-size=1280,1400", "about:blank",
        ]
        # Chromium reads commands on descriptor 3 and writes replies on 4.
        self.process = subprocess.Popen(
            ["sh", "-c", 'exec "$0" "$@" 3<&%d 4>&%d' % (commands_read, replies_write), chromium] + arguments,
            pass_fds=(commands_read, replies_write), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(commands_read)
        os.close(replies_write)
        self.pending = b""
        self.last = 0
        page = next(target for target in self.call("Target.getTargets")["targetInfos"] if target["type"] == "page")
        self.session = self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)

    def call(self, method, params=None, session=False):
        self.last += 1
        message = {"id": self.last, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            while b"\0" not in self.pending:
                chunk = os.read(self.replies, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self.pending += chunk
            text, self.pending = self.pending.split(b"\0", 1)
            reply = json.loads(text)
            if reply.get("id") == self.last:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"].get("message")))
                return reply["result"]
        raise RuntimeError("%s: no reply within %d s" % (method, TIMEOUT))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError("script failed: %s" % result["exceptionDetails"].get("exception", {}).get("description"))
        return result["result"].get("value")

    def mark(self):
        """Marks the current document, so that a new one is told apart by the mark's absence."""
        self.evaluate("window.__driverMark = true")

    def wait_for_new_document(self):
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            try:
                if self.evaluate("window.__driverMark !== true && document.readyState === 'complete'"):
                    return {"url": self.evaluate("location.href")}
            except RuntimeError:
                pass  # between two documents
            time.sleep(0.05)
        raise RuntimeError("no new page within %d s" % TIMEOUT)

    def step(self, step):
        if "goto" in step:
            self.mark()
            self.call("Page.navigate", {"url": step["goto"]}, session=True)
            return self.wait_for_new_document()
        if "fill" in step:
            selector, text = step["fill"]
            if not self.evaluate("(function(e){ if (!e) return false; e.value = %s; return true; })(document.querySelector(%s))"
                                 % (json.dumps(text), json.dumps(selector))):
                raise RuntimeError("nothing matches %s" % selector)
            return True
        if "click" in step:
            self.mark()
            if not self.evaluate("(function(e){ if (!e) return false; e.click(); return true; })(document.querySelector(%s))"
                                 % json.dumps(step["click"])):
                raise RuntimeError("nothing matches %s" % step["click"])
            return self.wait_for_new_document()
        if "screenshot" in step:
            return self.screenshot(step)
        if "eval" in step:
            return self.evaluate(step["eval"])
        if "html" in step:
            return self.evaluate("document.open(); document.write(%s); document.close(); true" % json.dumps(step["html"]))
        raise RuntimeError("unknown step %s" % json.dumps(step)[:200])

    def screenshot(self, step):
        width = int(step.get("width", 1280))
        metrics = {"width": width, "height": 1400, "deviceScaleFactor": 1, "mobile": width < 600}
        self.call("Emulation.setDeviceMetricsOverride", metrics, session=True)
        metrics["height"] = int(self.evaluate("Math.ceil(document.documentElement.scrollHeight)"))
        self.call("Emulation.setDeviceMetricsOverride", metrics, session=True)
        png = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(step["screenshot"], "wb") as file:
            file.write(base64.b64decode(png))
        value = self.evaluate(step["eval"]) if "eval" in step else None
        self.call("Emulation.clearDeviceMetricsOverride", session=True)
        return {"path": step["screenshot"], "value": value}

    def close(self):
        try:
            self.call("Browser.close")
        except RuntimeError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        subprocess.run(["rm", "-rf", self.profile])


def main():
    steps = json.load(sys.stdin)
    browser = Browser(sys.argv[1])
    results = []
    try:
        for step in steps:
            try:
                results.append(browser.step(step))
            except Exception as error:  # the test reads which step failed, and why
                results.append({"error": str(error), "step": step})
                break
    finally:
        browser.close()
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
