// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * A query with an {@code IN (...)} list over any number of values: one statement per
 * {@value #SIZE} values, so no statement grows with the data and the count of statements is known.
 */
public final class InChunks {
    /** Values per statement. */
    public static final int SIZE = 500;

    /** Binds one value at a parameter index. */
    @FunctionalInterface
    public interface Binder<T> {
        void bind(PreparedStatement ps, int index, T value) throws SQLException;
    }

    /** Reads one row of a chunk's result. */
    @FunctionalInterface
    public interface Rows {
        void read(ResultSet rs) throws SQLException;
    }

    /** What to do once a chunk is read (the scanner ends its read transaction there). */
    @FunctionalInterface
    public interface AfterChunk {
        void run() throws SQLException;
    }

    /** A Binder for long values. */
    public static final Binder<Long> LONGS = (ps, index, value) -> ps.setLong(index, value);

    private InChunks() {
    }

    /** {@code head + "(?, ..., ?)" + tail} for each chunk of {@code values}; every row to {@code rows}. */
    public static <T> void query(Connection c, String head, String tail, List<T> values, Binder<T> bind, Rows rows)
            throws SQLException {
        query(c, head, tail, values, bind, rows, () -> { });
    }

    /** The same, and {@code afterChunk} once each chunk's rows are read. */
    public static <T> void query(Connection c, String head, String tail, List<T> values, Binder<T> bind, Rows rows,
            AfterChunk afterChunk) throws SQLException {
        for (int from = 0; from < values.size(); from += SIZE) {
            List<T> chunk = values.subList(from, Math.min(values.size(), from + SIZE));
            String marks = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            try (PreparedStatement ps = c.prepareStatement(head + "(" + marks + ")" + tail)) {
                for (int i = 0; i < chunk.size(); i++) {
                    bind.bind(ps, i + 1, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.read(rs);
                    }
                }
            }
            afterChunk.run();
        }
    }
}
