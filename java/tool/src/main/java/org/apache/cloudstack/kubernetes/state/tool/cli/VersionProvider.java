// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
package org.apache.cloudstack.kubernetes.state.tool.cli;

import org.apache.cloudstack.kubernetes.state.NativeLibrary;
import picocli.CommandLine;

/**
 * {@code --version}: the jar's version, the native ABI and where the library was loaded from (the file, or the
 * jar's copy extracted), without failing when the library is missing.
 */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = CksStateCommand.class.getPackage().getImplementationVersion();
        String nativeAbi;
        try {
            nativeAbi = "native ABI " + NativeLibrary.abiVersion() + ", from " + NativeLibrary.source();
        } catch (RuntimeException e) {
            nativeAbi = "native library not available: " + e.getMessage();
        }
        return new String[] {"cks-state " + (version == null ? "0.1.0" : version) + " (" + nativeAbi + ")"};
    }
}
