//! The generated code table (`crate::codes`), as the glue names it.

pub(crate) use crate::codes::*;
