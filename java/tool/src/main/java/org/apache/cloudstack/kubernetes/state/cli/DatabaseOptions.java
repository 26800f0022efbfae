package org.apache.cloudstack.kubernetes.state.cli;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.apache.cloudstack.kubernetes.state.dbprops.CloudDbProperties;
import org.apache.cloudstack.kubernetes.state.dbprops.DbSettings;
import org.apache.cloudstack.kubernetes.state.dbprops.DbSettingsException;
import org.apache.cloudstack.kubernetes.state.jdbc.ConnectionSource;
import org.apache.cloudstack.kubernetes.state.StateMode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The database of scan and explain (a JDBC URL, or the management server's own db.properties)
 * and the mode its management servers run the scanner in.
 */
final class DatabaseOptions {
    @Option(names = "--mode", defaultValue = "compat",
            description = "the scanner's mode on the management servers: compat or fenced (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--jdbc-url",
            description = "the CloudStack database, e.g. jdbc:mysql://127.0.0.1:3306/cloud or jdbc:mariadb://...")
    String jdbcUrl;

    @Option(names = "--user", description = "database user (its password comes from --password-env or a prompt)")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR", description = "environment variable holding the password")
    String passwordEnv;

    @Option(names = "--db-properties", paramLabel = "FILE",
            description = "the management server's db.properties (e.g. /etc/cloudstack/management/db.properties):"
                    + " its URL, user and password, ENC(...) values decrypted as the server does")
    Path dbProperties;

    @Option(names = "--key-file", paramLabel = "FILE",
            description = "with --db-properties: the management key's file (default: as db.cloud.encryption.type says)")
    Path keyFile;

    StateMode mode() {
        return StateMode.fromConfig(mode);
    }

    /** Connections to the database the options name; the password is registered with {@link Secrets}. */
    ConnectionSource source(CommandSpec spec) throws DbSettingsException {
        DbSettings settings = settings(spec);
        Secrets.register(settings.password());
        String url = settings.url();
        try {
            DriverManager.getDriver(url);
        } catch (SQLException e) {
            throw new DbSettingsException("no JDBC driver for " + scheme(url) + " URLs: the tool carries MySQL"
                    + " Connector/J (jdbc:mysql), the MariaDB driver (jdbc:mariadb) and H2 (jdbc:h2)");
        }
        return () -> settings.user() == null ? DriverManager.getConnection(url)
                : DriverManager.getConnection(url, settings.user(), settings.password());
    }

    private DbSettings settings(CommandSpec spec) throws DbSettingsException {
        if ((jdbcUrl == null) == (dbProperties == null)) {
            throw new ParameterException(spec.commandLine(), "give either --jdbc-url or --db-properties");
        }
        if (dbProperties != null) {
            if (user != null || passwordEnv != null) {
                throw new ParameterException(spec.commandLine(),
                        "--db-properties names the user and password: --user and --password-env go with --jdbc-url");
            }
            return CloudDbProperties.read(dbProperties, keyFile, System.getenv());
        }
        if (keyFile != null) {
            throw new ParameterException(spec.commandLine(), "--key-file goes with --db-properties");
        }
        return new DbSettings(jdbcUrl, user, DatabasePassword.of(spec, user, passwordEnv));
    }

    /** The driver part of a JDBC URL ({@code jdbc:mysql}), for messages. */
    static String scheme(String url) {
        String[] parts = url.split(":", 3);
        return parts.length >= 2 ? parts[0] + ":" + parts[1] : "this";
    }
}
