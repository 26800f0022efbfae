// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.cloudstack.kubernetes.state.tool.dbprops.CloudDbProperties;
import org.apache.cloudstack.kubernetes.state.tool.dbprops.DbSettings;
import org.apache.cloudstack.kubernetes.state.tool.dbprops.DbSettingsException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The database of scan, explain and schema: a JDBC URL, or the management server's own
 * db.properties (by default the server's file, when it exists and no URL is given).
 */
final class DatabaseOptions {
    /** Where a management server keeps its settings. */
    static final String SERVER_DB_PROPERTIES = "/etc/cloudstack/management/db.properties";
    /** Names another default file (tests); the operator's way is --db-properties. */
    static final String DEFAULT_FILE_PROPERTY = "cks.state.default.db.properties";

    @Option(names = "--jdbc-url",
            description = "the CloudStack database, e.g. jdbc:mysql://127.0.0.1:3306/cloud or jdbc:mariadb://...")
    String jdbcUrl;

    @Option(names = "--user", description = "database user (its password comes from --password-env or a prompt)")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR", description = "environment variable holding the password")
    String passwordEnv;

    @Option(names = "--db-properties", paramLabel = "FILE",
            description = "the management server's db.properties: its URL (database HA included), user and password,"
                    + " ENC(...) values decrypted as the server does (default without --jdbc-url: "
                    + SERVER_DB_PROPERTIES + " when it exists)")
    Path dbProperties;

    @Option(names = "--key-file", paramLabel = "FILE",
            description = "with --db-properties: the management key's file (default: as db.cloud.encryption.type says)")
    Path keyFile;

    @Option(names = "--verbose", description = "also show the JDBC drivers' own log lines on standard error")
    boolean verbose;

    /** Whether the tool connects as the management server's db.properties says: as CloudStack's own account. */
    boolean asCloudStack() {
        return jdbcUrl == null;
    }

    /** Whether the command line names a database (table and rules read one only then). */
    boolean given() {
        return jdbcUrl != null || dbProperties != null;
    }

    /**
     * The database the options name, opened read-only unless {@code writes}; its passwords are
     * registered with {@link Secrets} before anything connects.
     */
    OperatorDatabase database(CommandSpec spec, boolean writes) {
        try {
            return new OperatorDatabase(settings(spec), writes);
        } catch (DbSettingsException e) {
            throw new ToolFailure(e.getMessage());
        }
    }

    private DbSettings settings(CommandSpec spec) throws DbSettingsException {
        if (jdbcUrl != null && dbProperties != null) {
            throw new ParameterException(spec.commandLine(), "give either --jdbc-url or --db-properties, not both");
        }
        if (jdbcUrl == null && (user != null || passwordEnv != null)) {
            throw new ParameterException(spec.commandLine(), "--user and --password-env go with --jdbc-url");
        }
        Path file = dbProperties;
        if (jdbcUrl == null && file == null) {
            Path server = Path.of(System.getProperty(DEFAULT_FILE_PROPERTY, SERVER_DB_PROPERTIES));
            if (!Files.exists(server)) {
                throw new ParameterException(spec.commandLine(), "give --jdbc-url or --db-properties (there is no "
                        + server + " on this machine)");
            }
            file = server;
            spec.commandLine().getErr().println("cks-state " + spec.name() + ": using the management server's " + server);
            spec.commandLine().getErr().flush();
        }
        if (file != null) {
            DbSettings settings = CloudDbProperties.read(file, keyFile, System.getenv());
            for (String property : CloudDbProperties.encryptedWithoutEncryption(file)) {
                spec.commandLine().getErr().println("cks-state " + spec.name() + ": note: " + file + ": " + property
                        + " is written ENC(...) but db.cloud.encryption.type is none, so it is used as written, as the server"
                        + " would use it; if the server decrypts it, set the encryption type it runs with");
            }
            spec.commandLine().getErr().flush();
            return settings;
        }
        if (keyFile != null) {
            throw new ParameterException(spec.commandLine(), "--key-file goes with --db-properties");
        }
        Secrets.registerUrl(jdbcUrl); // before a prompt or anything else can print the URL
        if (!jdbcUrl.regionMatches(true, 0, "jdbc:", 0, 5)) {
            throw new ParameterException(spec.commandLine(), "--jdbc-url is not a JDBC URL: one starts with jdbc:"
                    + " (jdbc:mysql://host:3306/cloud, jdbc:mariadb://host:3306/cloud or jdbc:h2:file:/path)");
        }
        if ((user != null || passwordEnv != null) && OperatorDatabase.namesCredentials(jdbcUrl)) {
            // MariaDB's driver takes the URL's, Connector/J the flags': name them once, so no driver guesses.
            throw new ParameterException(spec.commandLine(), "--jdbc-url names a user or password, and --user or"
                    + " --password-env does too: give them in one place");
        }
        return new DbSettings(jdbcUrl, user, DatabasePassword.of(spec, user, passwordEnv));
    }
}
