//! Native methods of the tests' `NativeTestHooks` (java/library/src/test), built only with the
//! cargo feature `test-hooks`: the library the jar ships has none of them.

use jni::objects::{JClass, JString};
use jni::sys::jint;
use jni::JNIEnv;

use super::errors::{run, BridgeError};

/// The benchmark floor: no catch_unwind, no conversion.
#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeTestHooks_noop(
    _env: JNIEnv,
    _class: JClass,
    x: jint,
) -> jint {
    x.wrapping_add(1)
}

/// Panics inside the one error path, with a message formatted by `format!`.
#[no_mangle]
pub extern "system" fn Java_org_apache_cloudstack_kubernetes_state_NativeTestHooks_forcePanic(
    mut env: JNIEnv,
    _class: JClass,
    message: JString,
) {
    run(&mut env, (), |env| {
        let text: String = if message.is_null() {
            return Err(BridgeError::Input("message must not be null".to_string()));
        } else {
            env.get_string(&message)?.into()
        };
        let code = 42;
        panic!("{text} (forced, code {code})");
    })
}
