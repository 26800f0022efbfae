// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.simulate;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JDBC URL parameter taken out of the URL: the URL without it (every occurrence) and its first
 * value, decoded. How the simulation moves credentials out of URL text.
 *
 * @param url   the URL without the parameter
 * @param value its first value, or null when the URL had none
 */
record UrlParameter(String url, String value) {
    /** Takes the parameters named by {@code names} (a regex alternation, matched in any case). */
    static UrlParameter take(String url, String names) {
        Pattern parameter = Pattern.compile("(?i)([?&;])(?:" + names + ")=([^&;]*)[&;]?");
        String value = null;
        for (Matcher m = parameter.matcher(url); m.find(); m = parameter.matcher(url)) {
            if (value == null) {
                value = URLDecoder.decode(m.group(2), StandardCharsets.UTF_8);
            }
            url = (url.substring(0, m.start()) + m.group(1) + url.substring(m.end())).replaceAll("[?&;]$", "");
        }
        return new UrlParameter(url, value);
    }
}
