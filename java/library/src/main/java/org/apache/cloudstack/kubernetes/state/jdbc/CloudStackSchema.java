package org.apache.cloudstack.kubernetes.state.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The DDL of the CloudStack tables cks-state uses ({@code cloudstack-schema.sql}: kubernetes_cluster,
 * kubernetes_cluster_vm_map, vm_instance, async_job, mshost) and of its own optional history table
 * ({@code state-history.sql}: cks_state_history). The same files run on MariaDB / MySQL and on H2
 * in MySQL mode ({@code MODE=MySQL;DATABASE_TO_LOWER=TRUE}). Every statement is
 * {@code CREATE TABLE IF NOT EXISTS}: running it twice is harmless.
 */
public final class CloudStackSchema {
    /** Class-path resource of the CloudStack subset. */
    public static final String CLOUDSTACK_RESOURCE = "cloudstack-schema.sql";
    /** Class-path resource of cks_state_history. */
    public static final String HISTORY_RESOURCE = "state-history.sql";

    /** The CloudStack tables, children first (an order that deletes without foreign key errors). */
    public static final List<String> CLOUDSTACK_TABLES = List.of("kubernetes_cluster_vm_map", "vm_instance",
            "async_job", "mshost", "kubernetes_cluster");

    private CloudStackSchema() {
    }

    /** Creates the CloudStack subset on this connection. */
    public static void create(Connection connection) throws SQLException {
        run(connection, statements(CLOUDSTACK_RESOURCE));
    }

    /** Creates cks_state_history on this connection (only needed when the DAO records history). */
    public static void createHistory(Connection connection) throws SQLException {
        run(connection, statements(HISTORY_RESOURCE));
    }

    /** The statements of one of this package's SQL resources, comments removed, without the ';'. */
    public static List<String> statements(String resource) {
        String text;
        try (InputStream in = CloudStackSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("resource not found next to CloudStackSchema: " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\r?\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return Collections.unmodifiableList(out);
    }

    private static void run(Connection connection, List<String> statements) throws SQLException {
        try (Statement st = connection.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }
}
