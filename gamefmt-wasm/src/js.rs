//! Values and errors across the boundary: the one `Serialize` path
//! (serde-wasm-bindgen, maps as plain objects, `None` as `null`; JSON
//! text for the slippi-js shapes, [`json`]), small
//! object builders for the few values the core has no record for, and the
//! package's error class.

use std::cell::RefCell;

use js_sys::{Function, Object, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The `GamefmtError` class the JavaScript wrapper registered.
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the class errors are thrown as (`new Class(message, kind,
/// offset)`); the package's `index.js` registers `GamefmtError`.
#[wasm_bindgen(js_name = setErrorClass)]
pub fn set_error_class(class: Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// A `GamefmtError` (a plain `Error` with the same fields before
/// registration).
pub fn error(kind: &str, message: &str, offset: usize) -> JsValue {
    let offset = JsValue::from(offset as f64);
    let args = js_sys::Array::of3(&message.into(), &kind.into(), &offset);
    let made = ERROR_CLASS.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|class| Reflect::construct(class, &args).ok())
    });
    made.unwrap_or_else(|| {
        let e = js_sys::Error::new(message);
        let _ = Reflect::set(&e, &"kind".into(), &kind.into());
        let _ = Reflect::set(&e, &"offset".into(), &offset);
        e.into()
    })
}

/// A core error as a `GamefmtError`: `kind` is `ErrorKind::name`, the
/// message its `Display`.
pub fn decode_error(e: gamefmt::Error) -> JsValue {
    error(e.kind.name(), &e.to_string(), e.offset)
}

/// The serializer every value goes through.
fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new()
        .serialize_missing_as_null(true)
        .serialize_maps_as_objects(true)
}

/// A value as JavaScript through its `Serialize`.
pub fn ser<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serializer())
        .map_err(|e| error("serialize", &e.to_string(), 0))
}

/// A value as JavaScript through JSON text: serde_json writes it in the
/// module, `JSON.parse` builds it. Only for values whose contract is what
/// `JSON.stringify` prints (the slippi-js shapes of the stats, see
/// `gamefmt::slippi::stats::slippi_js`), where it is the same value as
/// [`ser`]'s and, for their thousands of small objects, faster to build:
/// V8 parses the text natively instead of being called per key.
#[cfg(feature = "slippi")]
pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| error("serialize", &e.to_string(), 0))?;
    js_sys::JSON::parse(&text)
}

/// A plain object built key by key.
pub struct Obj(Object);

impl Obj {
    /// An empty object.
    pub fn new() -> Self {
        Self(Object::new())
    }

    /// The object made by `Serialize` (it must serialize as a map), to add
    /// keys to.
    pub fn from_ser<T: Serialize + ?Sized>(value: &T) -> Result<Self, JsValue> {
        let v = ser(value)?;
        Ok(Self(
            v.dyn_into::<Object>().unwrap_or_else(|_| Object::new()),
        ))
    }

    /// Sets `key` to `value`.
    pub fn set(&self, key: &str, value: impl Into<JsValue>) -> &Self {
        let _ = Reflect::set(&self.0, &key.into(), &value.into());
        self
    }

    /// Sets `key` to a serialized value.
    pub fn ser<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<&Self, JsValue> {
        Ok(self.set(key, ser(value)?))
    }

    /// The object.
    pub fn done(&self) -> JsValue {
        self.0.clone().into()
    }
}

/// `Some(n)` as a number, `None` as `null`.
#[cfg(feature = "teeworlds")]
pub fn opt_num<T: Into<f64>>(v: Option<T>) -> JsValue {
    v.map_or(JsValue::NULL, |n| JsValue::from(n.into()))
}

/// A zeroed buffer of `len` bytes, reserved fallibly (a length claimed by
/// hostile input fails as `out_of_memory` instead of trapping).
#[cfg(feature = "teeworlds")]
pub fn zeroed(len: usize, offset: usize) -> Result<Vec<u8>, JsValue> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        error(
            "out_of_memory",
            &format!("cannot allocate {len} bytes"),
            offset,
        )
    })?;
    v.resize(len, 0);
    Ok(v)
}

/// An array of values.
pub fn array(values: impl IntoIterator<Item = JsValue>) -> JsValue {
    values.into_iter().collect::<js_sys::Array>().into()
}

impl Obj {
    /// The object behind the builder.
    #[cfg(feature = "teeworlds")]
    pub fn object(&self) -> Object {
        self.0.clone()
    }

    /// A builder over an existing object.
    pub fn wrap(object: Object) -> Self {
        Self(object)
    }
}
