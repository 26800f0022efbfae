#!/usr/bin/env python3
# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""The scenario's servers that differ from its two (cloudstack_e2e.Scenario mixes this in): the one without
cks-state's library (compat), and in the overlay run the package's overlay checked and a package built for
another release."""
import json
import os
import subprocess
import time

from cloud import Failure, msid_of


class ServerVariants:
    def overlay_ran(self):
        """The as-released build with the package's overlay first on its class path, as the package's start check
        decided: every server bound cks-state with the native library loaded in place from the package's file (no
        extraction), and recovered; the package's doctor finds no problem there, and names a Java 11 given it. Then
        a server whose package was built for another release starts stock, raises a management-server alert naming
        the mismatch, and its doctor names it."""
        bound = [s["bound"] for s in self.report["servers"] + self.report["restarts"]]
        in_place = all(b and ("/root/usr/lib/cks-state/libcks_state.so)") in b for b in bound)
        overlay = {"recovered": self.report["clusters_recovered"] >= 1 and not self.report["stuck_clusters"],
                   "library_in_place": in_place, "bound": bound, "mismatch_started_stock": False, "mismatch_alert": None}
        self.report["overlay"] = overlay
        if not in_place:
            raise Failure("a server with the overlay did not load the package's library in place: %s" % bound)
        overlay["doctor"] = self.doctor(1, "no problem")
        overlay["doctor_java11"] = self.doctor(1, "problem: java: /usr/bin/java is Java 11.0.21, and cks-state needs 17",
                                               "java11")
        # The package built for another release: its start check leaves the overlay off, and the server starts
        # as released (no binding of cks-state), saying why in its status and in CloudStack's alert list.
        self.servers.start(3, variant="mismatch")
        with open(os.path.join(self.args.out, "ms3", "root", "run", "cks-state", "status")) as f:
            overlay["mismatch_status"] = f.read().strip()
        overlay["mismatch_bound"] = self.servers.bound_line(3)
        overlay["mismatch_started_stock"] = (overlay["mismatch_bound"] is None and overlay["mismatch_status"].startswith("stock:")
                                             and "is installed" in overlay["mismatch_status"])
        alerts = self.api(3).call("listAlerts", type=14).get("alert", [])
        named = [a["description"] for a in alerts if "without cks-state" in a.get("description", "")
                 and "is installed" in a.get("description", "")]
        overlay["mismatch_alert"] = named[0] if len(named) == 1 else None
        overlay["mismatch_alerts"] = len(named)
        overlay["doctor_mismatch"] = self.doctor(3, "problem: cks-state's overlay is built for CloudStack ")
        # That stock server has no library path: noexec temp folders and a group-writable home keep the library out.
        overlay["doctor_noexec"] = self.doctor(3, "problem: as root with the server's options (no -Dcks.state.library.path)"
                                               " the library could not be extracted and loaded", "noexec")
        named = [l for l in overlay["doctor_noexec"]["lines"] if "could not be extracted" in l]
        overlay["doctor_noexec"]["as_expected"] &= bool(named) and "noexec" in named[0] and (
            "/root/var/lib/cloudstack/management is writable by its group" in named[0])
        self.servers.kill(3)
        # Server 1: server 2 still runs the create of cluster 2 that server 1's stop took over (compat's window), and
        # a drain waits for every job of the server.
        overlay["drain"] = self.drain(1)
        doctors = [overlay["doctor"], overlay["doctor_java11"], overlay["doctor_mismatch"], overlay["doctor_noexec"]]
        if not (overlay["mismatch_started_stock"] and overlay["mismatch_alert"] and all(d["as_expected"] for d in doctors)
                and overlay["drain"]["as_expected"]):
            raise Failure("the package's doctor, or the server with an overlay for another release: %s" % json.dumps(overlay))

    def drain(self, n, wait=180):
        """The operator pages' drain before an install, on server n: prepareForShutdown (4.20, 4.21) or
        prepareForMaintenance (4.22 and later), readyForShutdown until it says ready (bounded), then the cancel, after
        which the server is Up again."""
        api = self.api(n)
        ms = self.db.query("SELECT uuid FROM mshost WHERE msid = %d AND removed IS NULL" % msid_of(n))[0][0]
        maintenance = tuple(int(x) for x in self.args.release.split(".")[:2]) >= (4, 22)
        prepare, cancel = ("prepareForMaintenance", "cancelMaintenance") if maintenance else ("prepareForShutdown", "cancelShutdown")
        info = {"prepare": prepare, "ready": False, "cancelled": False, "as_expected": False}
        if maintenance:
            # 4.22's maintenance moves the server's agents to another server of the `host` setting, and refuses to
            # start without one ("no other active management servers found from 'host' setting").
            info["host_setting"] = ",".join("%s.1%d" % (self.args.net, m) for m in (1, 2))
            api.call("updateConfiguration", name="host", value=info["host_setting"])
        api.call(prepare, managementserverid=ms)
        end = time.time() + wait
        while time.time() < end:
            state = shutdown_state(api.call("readyForShutdown", managementserverid=ms))
            info["readyforshutdown"] = state
            if state.get("readyforshutdown") in (True, "true"):
                info["ready"] = True
                break
            time.sleep(3)
        info["seconds"] = round(wait - (end - time.time()), 1)
        try:
            api.call(cancel, managementserverid=ms)
        except Failure as e:  # CloudStack may have ended the preparation itself (agents it could not move)
            info["cancel_error"] = str(e)[:500]
        after = shutdown_state(api.call("readyForShutdown", managementserverid=ms))
        info["after_cancel"] = after
        up = self.db.query("SELECT state FROM mshost WHERE msid = %d AND removed IS NULL" % msid_of(n))[0][0]
        info["state_after"] = up
        info["cancelled"] = after.get("shutdowntriggered") in (False, "false") and after.get("maintenanceinitiated") in (
            None, False, "false") and up == "Up"
        info["as_expected"] = info["ready"] and info["cancelled"]
        return info

    def doctor(self, n, expected, fault=None):
        """The package's doctor on server n (a fault given): exit 0 with "no problem", else exit 1 with the line
        naming the fault."""
        run = subprocess.run([self.args.script, "overlay", "doctor", str(n)] + ([fault] if fault else []),
                             capture_output=True, text=True, timeout=300)
        lines = run.stdout.splitlines()
        named = [l for l in lines if l.startswith(expected) or (expected == "no problem" and l == "cks-state doctor: no problem")]
        return {"exit": run.returncode, "lines": lines, "stderr": run.stderr.strip()[-500:],
                "as_expected": run.returncode == (0 if expected == "no problem" else 1) and len(named) == 1}

    def library_unavailable(self):
        """A third server on a hardened host: its temp folder, home and /var/tmp mounted noexec, so cks-state's
        library cannot load. It must come Up, answer read calls (listZones, listKubernetesClusters), and refuse
        a change to a cluster naming the cause; it must never bind cks-state."""
        info = {"server_up": False, "read_api_ok": False, "cks_refused": False, "message": None}
        self.report["library_unavailable"] = info
        self.servers.start(3, variant="unloadable")
        info["server_up"] = True
        info["logged"] = self.servers.log_lines(3, "Kubernetes clusters cannot be changed on this management server")[:1]
        info["bound"] = self.servers.bound_line(3)
        api = self.api(3)
        zones = api.call("listZones").get("zone", [])
        listed = api.call("listKubernetesClusters", listall="true").get("kubernetescluster", [])
        expected = int(self.db.query("SELECT COUNT(*) FROM kubernetes_cluster WHERE removed IS NULL")[0][0])
        info["read_api_ok"] = len(zones) == 1 and len(listed) == expected
        info["clusters_listed"] = len(listed)
        try:
            entry = self.submit(3, "createKubernetesCluster", None, name="e2e-refused", zoneid=self.zone, size=1,
                                kubernetesversionid=self.versions[0], serviceofferingid=self.offering)
            self.finish(entry, 300)
            info["message"] = entry["error"]
            info["cks_refused"] = entry["outcome"] == "failed"
        except Failure as e:
            info["message"] = str(e)
            info["cks_refused"] = "Kubernetes clusters cannot be changed on this management server" in str(e)
        named = info["message"] is not None and "noexec" in info["message"]
        created = self.db.query("SELECT COUNT(*) FROM kubernetes_cluster WHERE name = 'e2e-refused'")[0][0]
        info["cks_refused"] = info["cks_refused"] and named and created == "0"
        self.delete_without_library(info)
        self.servers.kill(3)
        if not (info["read_api_ok"] and info["cks_refused"] and info["delete_ok"] and info["bound"] is None):
            raise Failure("the server without cks-state's library: %s" % json.dumps(info))

    def delete_without_library(self, info):
        """A delete through the server without cks-state goes ahead (patch 0021), by CloudStack's own table:
        one of the clusters the patched servers made ends Destroyed and removed."""
        info["delete_ok"] = False
        rows = self.db.query("SELECT id FROM kubernetes_cluster WHERE removed IS NULL AND state IN"
                             " ('Running', 'Stopped', 'Alert', 'Error') ORDER BY id LIMIT 1")
        if not rows:
            info["delete"] = "no cluster in Running, Stopped, Alert or Error to delete"
            return
        cid = int(rows[0][0])
        entry = self.finish(self.submit(3, "deleteKubernetesCluster", cid, id=self.uuid(cid)), 600)
        state, removed = self.db.query("SELECT state, removed IS NOT NULL FROM kubernetes_cluster WHERE id = %d" % cid)[0]
        info["delete"] = {"cluster": cid, "outcome": entry["outcome"], "error": entry["error"], "state": state,
                          "removed": str(removed) == "1"}
        info["delete_ok"] = entry["outcome"] == "succeeded" and state == "Destroyed" and str(removed) == "1"


def shutdown_state(answer):
    """readyForShutdown's object (readyforshutdown, shutdowntriggered, ...), wrapped in its name or not."""
    for value in answer.values():
        if isinstance(value, dict) and "readyforshutdown" in value:
            return value
    return answer
