# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""What the scenario checks the clusters' states against: the table's rows (spec/state-machine.tsv)
and every state each cluster went through, sampled once a second."""
import os
import time

from cloud import now

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def spec_cells():
    with open(os.path.join(ROOT, "spec", "state-machine.tsv")) as f:
        return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]


def release_profiles():
    """[(first release as a tuple, profile)] of the spec's release profiles."""
    return [(version_tuple(c[4]), c[2]) for c in spec_cells() if c[0] == "profile" and c[4] != "-"]


def version_tuple(version):
    return tuple(int(n) for n in version.split("."))


def newest_release_profile():
    """The profile of the newest release (main's line: 4.23)."""
    return max(release_profiles())[1]


def release_profile(release):
    """The profile of a release the e2e runs (a line's database version, cloudstack/lines.tsv): the one
    whose first release is the latest at or before it."""
    fits = [p for p in release_profiles() if p[0] <= version_tuple(release)]
    if not fits:
        raise ValueError("no profile of spec/state-machine.tsv fits CloudStack %s" % release)
    return max(fits)[1]


def table_rows(profile=None):
    """The transitions of a profile of spec/state-machine.tsv (default: the newest release's): {(from, event): to}."""
    cells = spec_cells()
    profile = profile or newest_release_profile()
    tags = next(c[3].split(",") for c in cells if c[0] == "profile" and c[2] == profile)
    return {(c[1], c[2]): c[3] for c in cells if c[0] == "transition" and c[4] in tags}


class StateLog:
    """Every state each cluster went through, read from kubernetes_cluster once a second."""

    def __init__(self, db):
        self.db = db
        self.seen = {}      # id -> [(t, state)]
        self.t0 = time.time()

    def poll(self):
        # Deleted clusters too: their last state (Destroyed) is part of their history.
        for row in self.db.query("SELECT id, state FROM kubernetes_cluster"):
            cid, state = int(row[0]), row[1]
            history = self.seen.setdefault(cid, [])
            if not history or history[-1][1] != state:
                history.append((round(time.time() - self.t0, 1), state))

    def state(self, cid):
        self.poll()
        return self.seen[cid][-1][1]

    def wait(self, what, predicate, seconds):
        end = now() + seconds
        while now() < end:
            self.poll()
            if predicate():
                return True
            time.sleep(1)
        self.poll()
        return predicate()

    def illegal(self, table):
        return illegal_changes(self.seen, table)


def illegal_changes(seen, table):
    """Observed state changes that no path of the table's rows explains. The states are sampled once a
    second, so two changes within a second (Starting -> Stopping -> Stopped) are seen as one
    (Starting -> Stopped): consecutive observations must be joined by a path of rows, any events."""
    step = {}
    for (f, _), t in table.items():
        step.setdefault(f, set()).add(t)

    def reachable(a, b):
        todo, seen_states = [a], {a}
        while todo:
            for n in step.get(todo.pop(), ()):
                if n == b:
                    return True
                if n not in seen_states:
                    seen_states.add(n)
                    todo.append(n)
        return False

    out = []
    for cid, history in seen.items():
        for (_, a), (_, b) in zip(history, history[1:]):
            if not reachable(a, b):
                out.append({"cluster": cid, "from": a, "to": b})
    return out


if __name__ == "__main__":
    # make scripts-test: the profile the e2e checks against is one the spec has.
    print("states.py: profile %s (the newest release's) has %d rows" % (newest_release_profile(), len(table_rows())))
    # Each line's database version (cloudstack/lines.tsv) names a profile.
    with open(os.path.join(ROOT, "cloudstack", "lines.tsv")) as f:
        for line, _, database, _ in (r.rstrip("\n").split("\t") for r in f if r.strip() and not r.startswith("#")):
            profile = release_profile(database)
            print("states.py: line %s (%s) checks against profile %s, %d rows" % (line, database, profile, len(table_rows(profile))))
