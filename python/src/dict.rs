//! `dict!`: a Python dict from `key => value` pairs.

/// Builds a `Bound<PyDict>` from `key => value` pairs (keys interned once,
/// values converted with `IntoPyObject`); evaluates to
/// `PyResult<Bound<PyDict>>`.
macro_rules! dict {
    ($py:expr, { $($key:literal => $value:expr),* $(,)? }) => {{
        let d = ::pyo3::types::PyDict::new($py);
        (|| -> ::pyo3::PyResult<_> {
            $( ::pyo3::types::PyDictMethods::set_item(&d, ::pyo3::intern!($py, $key), $value)?; )*
            Ok(d)
        })()
    }};
}

pub(crate) use dict;
