//! The SQL engine: B+trees, records, catalog, sqlparser front end, planner,
//! executor and the streaming script splitter. (Being built.)

pub mod value;

pub use value::Value;
