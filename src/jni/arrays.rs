//! Primitive arrays across JNI, with the argument's name in every error.

use jni::objects::{JIntArray, JLongArray};
use jni::sys::{jint, jlong};
use jni::JNIEnv;

use super::errors::{BridgeError, BridgeResult};

fn null(argument: &str) -> BridgeError {
    BridgeError::Input(format!("{argument} must not be null"))
}

pub(crate) fn read_longs(
    env: &JNIEnv,
    argument: &str,
    array: &JLongArray,
) -> BridgeResult<Vec<jlong>> {
    if array.is_null() {
        return Err(null(argument));
    }
    let mut values = vec![0; env.get_array_length(array)? as usize];
    env.get_long_array_region(array, 0, &mut values)?;
    Ok(values)
}

pub(crate) fn read_optional_longs(
    env: &JNIEnv,
    argument: &str,
    array: &JLongArray,
) -> BridgeResult<Option<Vec<jlong>>> {
    if array.is_null() {
        Ok(None)
    } else {
        read_longs(env, argument, array).map(Some)
    }
}

pub(crate) fn read_ints(
    env: &JNIEnv,
    argument: &str,
    array: &JIntArray,
) -> BridgeResult<Vec<jint>> {
    if array.is_null() {
        return Err(null(argument));
    }
    let mut values = vec![0; env.get_array_length(array)? as usize];
    env.get_int_array_region(array, 0, &mut values)?;
    Ok(values)
}

pub(crate) fn same_length(
    argument: &'static str,
    actual: usize,
    expected_from: &'static str,
    expected: usize,
) -> BridgeResult<()> {
    if actual == expected {
        Ok(())
    } else {
        Err(crate::error::CoreError::LengthMismatch {
            argument,
            actual,
            expected_from,
            expected,
        }
        .into())
    }
}

pub(crate) fn new_longs<'local>(
    env: &JNIEnv<'local>,
    values: &[jlong],
) -> BridgeResult<JLongArray<'local>> {
    let length = i32::try_from(values.len()).map_err(|_| {
        BridgeError::Input(format!(
            "result of {} elements is too large for a Java array",
            values.len()
        ))
    })?;
    let array = env.new_long_array(length)?;
    env.set_long_array_region(&array, 0, values)?;
    Ok(array)
}

pub(crate) fn new_ints<'local>(
    env: &JNIEnv<'local>,
    values: &[jint],
) -> BridgeResult<JIntArray<'local>> {
    let array = env.new_int_array(values.len() as i32)?;
    env.set_int_array_region(&array, 0, values)?;
    Ok(array)
}
