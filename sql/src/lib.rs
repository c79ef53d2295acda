//! The SQL engine: B+trees, records, catalog, sqlparser front end, planner,
//! executor and the streaming script splitter. (Being built.)

pub mod btree;
pub mod catalog;
pub mod exec;
pub mod expr;
pub mod planner;
pub mod session;
pub mod storage;
mod error;
pub mod func;
pub mod keycode;
pub mod record;
pub mod script;
pub mod value;

pub use error::{Error, Result};
pub use value::Value;
