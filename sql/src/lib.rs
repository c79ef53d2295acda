//! The SQL engine: B+trees, records, catalog, sqlparser front end, planner,
//! executor and the streaming script splitter. (Being built.)

pub mod btree;
mod error;
pub mod func;
pub mod keycode;
pub mod record;
pub mod script;
pub mod value;

pub use error::{Error, Result};
pub use value::Value;
