//! The JNI glue: converts Java arguments, calls the core, converts back. Nothing here decides.

mod arrays;
mod bridge;
mod codec;
mod codes;
mod errors;
mod fenced;
mod logging;
#[cfg(feature = "test-hooks")]
mod test_hooks;
