#!/usr/bin/env python3
"""An incremental source for the scheduler's `command` plugin, in Python (docs/plugin-protocol.md).

It reads a JSON file of notes written by some other program:

    {"notes": [{"id": "n1", "title": "…", "body": "…", "updated": "2026-11-01T10:00:00Z"}, …],
     "deleted": [{"id": "n0", "at": "2026-11-02T08:00:00Z"}, …]}

A note may say who may read it ("sharedWith": ["team:support", "user:ana"]): those names become the item's
`access`, so only a tenant token whose `groups` name one of them finds it (docs/plugins.md, "Items only some may
find"). A note without it is found by whoever may search the domain; a note shared with nobody is not indexed.

A full run prints every note; an incremental run only the notes updated, and the deletions made, after the cursor its
state holds; both end with the new state, {"cursor": "<latest instant seen>"}. Asked to check itself
(SCHEDULER_ACTION=check), it reads the file and says how many notes it holds. A state it cannot read makes it exit
with status 3: the scheduler then runs a full sync. The file is NOTES_FILE (notes.json beside this script by default).
"""
import json
import os
import sys
from datetime import datetime


def instant(text):
    """The instant an RFC 3339 text names (Python 3.11 reads a trailing Z)."""
    return datetime.fromisoformat(text)


def emit(line):
    print(json.dumps(line, ensure_ascii=False), flush=False)


def load(path):
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    if not isinstance(data, dict) or not isinstance(data.get("notes", []), list):
        raise ValueError(f"{path}: expected an object with a list of notes")
    return data.get("notes", []), data.get("deleted", [])


def main():
    path = os.environ.get("NOTES_FILE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes.json"))
    domain = os.environ["SCHEDULER_DOMAIN"]
    if os.environ.get("SCHEDULER_ACTION") == "check":
        try:
            notes, _ = load(path)
            emit({"check": {"ok": True, "message": f"read {len(notes)} notes from {os.path.basename(path)}"}})
        except (OSError, ValueError) as error:
            emit({"check": {"ok": False, "message": str(error)}})
        return 0

    cursor = None
    state_file = os.environ.get("SCHEDULER_STATE_FILE")
    if os.environ.get("SCHEDULER_SYNC_MODE") == "incremental" and state_file:
        try:
            with open(state_file, encoding="utf-8") as file:
                cursor = instant(json.load(file)["cursor"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"cannot read the state: {error}", file=sys.stderr)
            return 3

    notes, deleted = load(path)
    latest = cursor
    for note in notes:
        updated = instant(note["updated"])
        latest = max(latest or updated, updated)
        if cursor is not None and updated <= cursor:
            continue
        item = {
            "uniqueIdentifier": f"note-{note['id']}", "domainIdentifier": domain, "contentType": "public.text",
            "title": note["title"], "contentDescription": note.get("body"), "contentModificationDate": note["updated"],
        }
        if "sharedWith" in note:
            # The source's ACL, as group names: the application's backend puts the same names in its users' tokens.
            # A note shared with nobody is not indexed at all: leaving `access` out would show it to everyone.
            if not note["sharedWith"]:
                continue
            item["access"] = sorted(set(note["sharedWith"]))
        emit(item)
    for gone in deleted:
        at = instant(gone["at"])
        latest = max(latest or at, at)
        if cursor is not None and at > cursor:
            emit({"delete": f"note-{gone['id']}"})
    if latest is not None:
        emit({"state": {"cursor": latest.isoformat()}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
