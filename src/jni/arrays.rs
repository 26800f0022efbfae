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

/// Ids per chunk of [`LongStream`]: 64 KiB, which stays in the L2 cache.
const CHUNK: usize = 8 * 1024;

/// A Java `long[]` read front to back through one reused chunk buffer. A million job ids then
/// cost no 8 MB copy, no allocation beyond the chunk and no page faults; the array is read with
/// `GetLongArrayRegion`, so the GC is never held off (unlike a critical section).
pub(crate) struct LongStream<'a, 'local> {
    env: &'a JNIEnv<'local>,
    array: &'a JLongArray<'local>,
    len: usize,
    next_start: usize,
    chunk: Box<[jlong]>,
    filled: usize,
    position: usize,
    error: Option<jni::errors::Error>,
}

impl<'a, 'local> LongStream<'a, 'local> {
    /// A stream over a non-null array (an error naming `argument` for null).
    pub(crate) fn new(
        env: &'a JNIEnv<'local>,
        argument: &str,
        array: &'a JLongArray<'local>,
    ) -> BridgeResult<Self> {
        if array.is_null() {
            return Err(null(argument));
        }
        let len = env.get_array_length(array)? as usize;
        Ok(LongStream {
            env,
            array,
            len,
            next_start: 0,
            chunk: vec![0; CHUNK.min(len)].into_boxed_slice(),
            filled: 0,
            position: 0,
            error: None,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The JNI error that ended the stream early, if one did: the caller must not trust what
    /// it computed from a truncated stream.
    pub(crate) fn finish(self) -> BridgeResult<()> {
        self.error.map_or(Ok(()), |e| Err(e.into()))
    }

    #[cold]
    fn refill(&mut self) -> bool {
        if self.error.is_some() || self.next_start >= self.len {
            return false;
        }
        let n = self.chunk.len().min(self.len - self.next_start);
        let start = self.next_start as i32;
        if let Err(e) = self
            .env
            .get_long_array_region(self.array, start, &mut self.chunk[..n])
        {
            self.error = Some(e);
            return false;
        }
        self.next_start += n;
        self.filled = n;
        self.position = 0;
        true
    }
}

impl Iterator for LongStream<'_, '_> {
    type Item = jlong;

    #[inline]
    fn next(&mut self) -> Option<jlong> {
        if self.position == self.filled && !self.refill() {
            return None;
        }
        let value = self.chunk[self.position];
        self.position += 1;
        Some(value)
    }
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
