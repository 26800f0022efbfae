// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Forwards Rust `log` records to the Java side's Log4j 2 logger through `NativeLog.log`.
//! The Java side mirrors its level into `log::set_max_level`, so filtered records never cross.
//!
//! Why this much for the core's one debug line and the panic report: a logger inside a JVM must
//! not attach threads, must not leave a pending exception behind, must bind its class through
//! the caller's class loader (one library per loader), and must not forward the `jni` crate's own
//! records, which at TRACE recurse until the stack overflows and the JVM dies.

use std::cell::Cell;

use jni::objects::{GlobalRef, JClass, JStaticMethodID};
use jni::signature::{Primitive, ReturnType};
use jni::sys::{jint, jvalue};
use jni::{JNIEnv, JavaVM};
use log::{LevelFilter, Log, Metadata, Record};
use once_cell::sync::OnceCell;

use super::codes::log_level;
use super::errors::{BridgeError, BridgeResult};

const SINK_CLASS: &str = "org/apache/cloudstack/kubernetes/state/NativeLog";
const SINK_METHOD: &str = "log";
const SINK_SIGNATURE: &str = "(ILjava/lang/String;Ljava/lang/String;)V";

struct Sink {
    vm: JavaVM,
    class: GlobalRef,
    method: JStaticMethodID,
}

static SINK: OnceCell<Sink> = OnceCell::new();
static LOGGER: JavaLogger = JavaLogger;

thread_local! {
    /// Set while this thread forwards a record: the JNI calls of the forwarding must not log.
    static FORWARDING: Cell<bool> = const { Cell::new(false) };
}

/// Records of the `jni` crate itself (at TRACE it logs every JNI call it makes) never cross:
/// forwarding one makes JNI calls, which log again, and so on until the stack overflows.
fn from_jni_crate(target: &str) -> bool {
    target == "jni" || target.starts_with("jni::")
}

/// Clears [`FORWARDING`] however the forwarding ends.
struct ForwardingGuard;

impl Drop for ForwardingGuard {
    fn drop(&mut self) {
        let _ = FORWARDING.try_with(|f| f.set(false));
    }
}

struct JavaLogger;

/// A record's level as the Java side reads it (`log_level` codes).
fn level_code(level: log::Level) -> jint {
    match level {
        log::Level::Error => log_level::ERROR,
        log::Level::Warn => log_level::WARN,
        log::Level::Info => log_level::INFO,
        log::Level::Debug => log_level::DEBUG,
        log::Level::Trace => log_level::TRACE,
    }
}

fn level_filter(level: jint) -> BridgeResult<LevelFilter> {
    Ok(match level {
        log_level::OFF => LevelFilter::Off,
        log_level::ERROR => LevelFilter::Error,
        log_level::WARN => LevelFilter::Warn,
        log_level::INFO => LevelFilter::Info,
        log_level::DEBUG => LevelFilter::Debug,
        log_level::TRACE => LevelFilter::Trace,
        other => {
            return Err(BridgeError::Input(format!(
                "level: unknown log level {other} (0 off .. 5 trace)"
            )))
        }
    })
}

/// Binds the sink once (class and method looked up through the caller's class loader) and sets
/// the level.
pub(crate) fn install(env: &mut JNIEnv, _caller: &JClass, level: jint) -> BridgeResult<()> {
    let filter = level_filter(level)?;
    SINK.get_or_try_init(|| -> BridgeResult<Sink> {
        let class = env.find_class(SINK_CLASS)?;
        let method = env.get_static_method_id(&class, SINK_METHOD, SINK_SIGNATURE)?;
        let class = env.new_global_ref(&class)?;
        Ok(Sink {
            vm: env.get_java_vm()?,
            class,
            method,
        })
    })?;
    // Fails only if another logger owns the process (a host embedding us in Rust): then keep it.
    if log::set_logger(&LOGGER).is_ok() {
        quiet_panics();
    }
    log::set_max_level(filter);
    Ok(())
}

/// A caught panic already becomes a Java exception with its message: report it once through the
/// log instead of the default hook's backtrace on the JVM's stderr.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        log::error!("native panic (turned into CksStateNativeException): {info}");
    }));
}

fn forward(sink: &Sink, record: &Record) -> jni::errors::Result<()> {
    // Records are only emitted inside native calls made by Java threads: never attach here.
    let mut env = sink.vm.get_env()?;
    if env.exception_check()? {
        return Ok(());
    }
    let result = env.with_local_frame(4, |env| -> jni::errors::Result<()> {
        let target = env.new_string(record.target())?;
        let message = env.new_string(record.args().to_string())?;
        let class: &JClass = sink.class.as_obj().into();
        let args = [
            jvalue {
                i: level_code(record.level()),
            },
            jvalue { l: target.as_raw() },
            jvalue {
                l: message.as_raw(),
            },
        ];
        // SAFETY: method id and argument types match SINK_SIGNATURE, looked up on this class.
        unsafe {
            env.call_static_method_unchecked(
                class,
                sink.method,
                ReturnType::Primitive(Primitive::Void),
                &args,
            )
        }?;
        Ok(())
    });
    // A logger must never leave an exception behind for the caller's JNI code.
    if env.exception_check()? {
        env.exception_clear()?;
    }
    result
}

impl Log for JavaLogger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &Record) {
        if !self.enabled(record.metadata()) || from_jni_crate(record.target()) {
            return;
        }
        let Some(sink) = SINK.get() else { return };
        // A record emitted while this thread forwards one (a JNI call logging) is dropped, and so
        // is one from a thread whose thread-locals are already gone.
        if FORWARDING.try_with(|f| f.replace(true)).unwrap_or(true) {
            return;
        }
        let _guard = ForwardingGuard;
        let _ = forward(sink, record);
    }

    fn flush(&self) {}
}

#[cfg(test)]
mod tests {
    use super::from_jni_crate;

    #[test]
    fn the_jni_crates_records_stay_out() {
        assert!(from_jni_crate("jni"));
        assert!(from_jni_crate("jni::wrapper::jnienv"));
        assert!(!from_jni_crate("jnix"));
        assert!(!from_jni_crate("cks_state_jni::bridge"));
    }
}
