// Copyright 2025-2026 The cks-state authors
// SPDX-License-Identifier: Apache-2.0
//! Primitive arrays across JNI, with the argument's name in every error.

use jni::objects::{AsJArrayRaw, JIntArray, JLongArray, JObject, JObjectArray};
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
    let mut values = zeroed(argument, env.get_array_length(array)? as usize)?;
    env.get_long_array_region(array, 0, &mut values)?;
    Ok(values)
}

/// Room for `len` values, or an `OutOfMemoryError` naming the argument.
pub(crate) fn with_capacity<T>(argument: &str, len: usize) -> BridgeResult<Vec<T>> {
    let mut values: Vec<T> = Vec::new();
    values.try_reserve_exact(len).map_err(|_| {
        BridgeError::OutOfMemory(format!(
            "cks-state native: no memory for the {len} elements of {argument}"
        ))
    })?;
    Ok(values)
}

/// `len` zeros, or an `OutOfMemoryError` naming the argument when the native heap refuses them (the
/// default allocation failure aborts the process, the JVM with it).
pub(crate) fn zeroed(argument: &str, len: usize) -> BridgeResult<Vec<jlong>> {
    let mut values = with_capacity(argument, len)?;
    values.resize(len, 0);
    Ok(values)
}

/// Ids per chunk of [`LongChunks`]: 16 KiB, half the L1 data cache, so that the chunk is still
/// there for the second pass over it (checking, then marking). 64 KiB chunks went to L2 between
/// the two passes.
const CHUNK: usize = 2 * 1024;

/// A Java `long[]` read front to back in chunks through one reused buffer. A million job ids
/// then cost no 8 MB copy, no allocation beyond the chunk and no page faults; the array is read
/// with `GetLongArrayRegion`, so the GC is never held off (unlike a critical section).
pub(crate) struct LongChunks<'a, 'local> {
    env: &'a JNIEnv<'local>,
    array: &'a JLongArray<'local>,
    len: usize,
    next_start: usize,
    buffer: Box<[jlong]>,
}

impl<'a, 'local> LongChunks<'a, 'local> {
    /// Chunks of a non-null array (an error naming `argument` for null).
    pub(crate) fn new(
        env: &'a JNIEnv<'local>,
        argument: &str,
        array: &'a JLongArray<'local>,
    ) -> BridgeResult<Self> {
        if array.is_null() {
            return Err(null(argument));
        }
        let len = env.get_array_length(array)? as usize;
        Ok(LongChunks {
            env,
            array,
            len,
            next_start: 0,
            buffer: vec![0; CHUNK.min(len)].into_boxed_slice(),
        })
    }

    /// The next chunk with the index of its first element, or None after the last one.
    pub(crate) fn next_chunk(&mut self) -> BridgeResult<Option<(usize, &[jlong])>> {
        let start = self.next_start;
        if start >= self.len {
            return Ok(None);
        }
        let n = self.buffer.len().min(self.len - start);
        let chunk = &mut self.buffer[..n];
        self.env
            .get_long_array_region(self.array, start as i32, chunk)?;
        self.next_start += n;
        Ok(Some((start, chunk)))
    }
}

/// The length of a non-null array argument (an error naming `argument` for null).
pub(crate) fn array_length<'local>(
    env: &JNIEnv,
    argument: &str,
    array: &impl AsJArrayRaw<'local>,
) -> BridgeResult<usize> {
    if array.as_ref().is_null() {
        return Err(null(argument));
    }
    Ok(env.get_array_length(array)? as usize)
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
        Err(super::errors::DecodeError::LengthMismatch {
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

pub(crate) fn new_strings<'local>(
    env: &mut JNIEnv<'local>,
    values: &[&str],
) -> BridgeResult<JObjectArray<'local>> {
    let array = env.new_object_array(values.len() as jint, "java/lang/String", JObject::null())?;
    for (i, value) in values.iter().enumerate() {
        let string = env.new_string(value)?;
        env.set_object_array_element(&array, i as jint, &string)?;
        // Keep the local reference table small: -Xcheck:jni warns past its capacity.
        env.delete_local_ref(string)?;
    }
    Ok(array)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allocation_the_heap_refuses_is_an_out_of_memory_error_naming_the_argument() {
        match zeroed("candidates", usize::MAX / 4) {
            Err(BridgeError::OutOfMemory(message)) => {
                assert!(message.contains("candidates"), "{message}")
            }
            other => panic!("expected OutOfMemory, got {other:?}"),
        }
        assert_eq!(zeroed("candidates", 3).unwrap(), vec![0, 0, 0]);
        assert!(matches!(
            with_capacity::<u64>("hosts", usize::MAX / 2),
            Err(BridgeError::OutOfMemory(_))
        ));
    }
}
