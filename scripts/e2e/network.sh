# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/e2e-cloudstack.sh: a slot's network (its globals: NS, BRIDGE, NET, SERVERS, PUBLIC,
# STANDIN_IP).
# shellcheck shell=bash

# ---- network: a bridge on the host, one namespace per server with its own MAC and address.
network() {
    if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link add "$BRIDGE" type bridge
        ip addr add "$NET.1/24" dev "$BRIDGE"
        ip link set "$BRIDGE" up
    fi
    local n ns
    for n in "${SERVERS[@]}"; do
        ns="${NS}ms$n"
        resolver "$ns"
        grep -qw "$ns" <<< "$(ip netns list)" || ip netns add "$ns"
        if ! ip link show "${NS}h$n" >/dev/null 2>&1; then
            ip link add "${NS}h$n" type veth peer name "${NS}p$n"
            ip link set "${NS}h$n" master "$BRIDGE"
            ip link set "${NS}h$n" up
            ip link set "${NS}p$n" netns "$ns"
            # Not named veth*: MacAddress skips those.
            ip netns exec "$ns" ip link set "${NS}p$n" name eth0
            ip netns exec "$ns" ip link set eth0 address "02:c5:00:00:00:0$n"
            ip netns exec "$ns" ip addr add "$NET.1$n/24" dev eth0
            ip netns exec "$ns" ip link set eth0 up
            ip netns exec "$ns" ip link set lo up
            # A default route: the management server's certificate names the addresses of the default
            # route's device (NetUtils.getAllDefaultNicIps), which peers then verify.
            ip netns exec "$ns" ip route add default via "$NET.1"
            ip netns exec "$ns" ip route add "$PUBLIC.0/24" via "$STANDIN_IP"
        fi
    done
    # The nodes' namespace: every public address is local there (an AnyIP route), so the port-forwarding
    # rules CKS writes on the simulated virtual router lead to the stand-in.
    if ! grep -qw "${NS}nodes" <<< "$(ip netns list)"; then
        ip netns add "${NS}nodes"
        ip link add "${NS}h0" type veth peer name "${NS}p0"
        ip link set "${NS}h0" master "$BRIDGE"
        ip link set "${NS}h0" up
        ip link set "${NS}p0" netns "${NS}nodes"
        ip netns exec "${NS}nodes" ip addr add "$STANDIN_IP/24" dev "${NS}p0"
        ip netns exec "${NS}nodes" ip link set "${NS}p0" up
        ip netns exec "${NS}nodes" ip link set lo up
        ip netns exec "${NS}nodes" ip route add local "$PUBLIC.0/24" dev lo
    fi
}

# A namespace's own names (ip netns exec mounts /etc/netns/<ns>/* over /etc): the slot's addresses in its
# hosts file, and no name server. The host's resolver is out of reach from a namespace, so each lookup
# waited for its timeout; MySQL Connector/J asks the database address's name (reverse) for every new
# connection (ConnectionImpl, InetSocketAddress.getHostName), and 4.23's pool starved behind it.
resolver() {
    local n dir="/etc/netns/$1"
    mkdir -p "$dir"
    { echo "127.0.0.1 localhost"; echo "$NET.1 cks-e2e-host"; echo "$STANDIN_IP cks-e2e-nodes"
      for n in "${SERVERS[@]}"; do echo "$NET.1$n cks-e2e-ms$n"; done; } > "$dir/hosts"
    echo "# make e2e-cloudstack: no name server in this namespace (scripts/e2e/network.sh)" > "$dir/resolv.conf"
}

unnetwork() {
    local n
    for n in "${SERVERS[@]}"; do
        rm -rf "/etc/netns/${NS}ms$n"
        ip netns del "${NS}ms$n" 2>/dev/null || true
        ip link del "${NS}h$n" 2>/dev/null || true
    done
    ip netns del "${NS}nodes" 2>/dev/null || true
    ip link del "${NS}h0" 2>/dev/null || true
    ip link del "$BRIDGE" 2>/dev/null || true
}
