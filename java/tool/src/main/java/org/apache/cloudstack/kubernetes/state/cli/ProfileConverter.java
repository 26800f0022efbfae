package org.apache.cloudstack.kubernetes.state.cli;

import org.apache.cloudstack.kubernetes.state.Profile;
import picocli.CommandLine;

/** {@code --profile upstream|alert-scaling} (the table file's names) to {@link Profile}. */
final class ProfileConverter implements CommandLine.ITypeConverter<Profile> {
    @Override
    public Profile convert(String value) {
        try {
            return Profile.fromLabel(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
