// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
import com.cloud.kubernetes.cluster.KubernetesCluster;
import com.cloud.kubernetes.cluster.dao.KubernetesClusterStateTable;
import org.apache.cloudstack.kubernetes.state.ClusterStateMachine;
import org.apache.cloudstack.kubernetes.state.NativeLibrary;
import org.apache.cloudstack.kubernetes.state.StateMode;

/**
 * Run on the class path of a jar shaded the way CloudStack's client module shades the management
 * server: the patched plugin binds cks-state to CloudStack's own s_fsm, and the native library comes
 * out of that jar. Prints what a server logs; exits non-zero on anything else.
 */
public final class ShadedJarCheck {
    public static void main(String[] args) throws Exception {
        String expectedVersion = args[0];
        ClusterStateMachine<KubernetesCluster.State, KubernetesCluster.Event> machine =
                KubernetesClusterStateTable.bind(KubernetesCluster.State.getStateMachine(), StateMode.COMPAT);
        String platform = NativeLibrary.platform();
        String line = "cks-state " + NativeLibrary.version() + " (native ABI " + NativeLibrary.abiVersion() + ", " + platform
                + ", from " + NativeLibrary.source() + "), profile " + machine.profile().label();
        System.out.println(line);
        String arch = System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch");
        require(("linux-" + arch).equals(platform), "the library was not loaded from the jar's linux-" + arch + " folder");
        require(NativeLibrary.abiVersion() == NativeLibrary.expectedAbiVersion(), "ABI mismatch");
        require(expectedVersion.equals(NativeLibrary.version()), "version " + NativeLibrary.version() + ", expected "
                + expectedVersion);
        require(machine.nextState(KubernetesCluster.State.Running, KubernetesCluster.Event.ScaleUpRequested)
                == KubernetesCluster.State.Scaling, "Running -ScaleUpRequested-> Scaling");
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            System.err.println("ShadedJarCheck: " + what);
            System.exit(1);
        }
    }
}
