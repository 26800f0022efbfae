package org.apache.cloudstack.kubernetes.state.dbprops;

/** Where and as whom to connect, as the management server would; {@code toString} hides the password. */
public record DbSettings(String url, String user, String password) {
    @Override
    public String toString() {
        return "DbSettings[url=" + url + ", user=" + user + ", password=" + (password == null ? "none" : "****") + "]";
    }
}
