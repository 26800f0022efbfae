// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.dbprops;

import java.util.List;

/**
 * Where and as whom to connect, as the management server would; {@code toString} hides the password.
 *
 * @param url          the URL as the server builds it (with database HA: every host in one URL)
 * @param user         the user, or null when the URL names it
 * @param password     the password, or null
 * @param connectUrls  what the tool tries, in order: the URL itself, or with database HA one URL per
 *                     host, the source first, then each replica
 */
public record DbSettings(String url, String user, String password, List<String> connectUrls) {
    public DbSettings {
        connectUrls = List.copyOf(connectUrls);
    }

    /** Settings of one URL. */
    public DbSettings(String url, String user, String password) {
        this(url, user, password, List.of(url));
    }

    @Override
    public String toString() {
        return "DbSettings[url=" + url + ", user=" + user + ", password=" + (password == null ? "none" : "****") + "]";
    }
}
