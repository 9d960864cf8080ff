//! numpy arrays without the numpy crate: arrays are made by calling `numpy.empty` and filled
//! through the buffer protocol (`pyo3::buffer`), after checking their shape, item size and
//! layout, so a wrong array is a Python exception, never a bad write.

use pyo3::buffer::{PyBuffer, PyUntypedBuffer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

static EMPTY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `numpy.empty(shape, dtype)`.
pub fn empty<'py>(py: Python<'py>, shape: &[usize], dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    let f = EMPTY.import(py, "numpy", "empty")?;
    f.call1((shape.to_vec(), dtype))
}

/// A writable, C-contiguous array of one-byte items (int8, uint8 or bool) holding exactly
/// `shape`, as a byte slice. The slice lives as long as the returned buffer guard.
pub struct Bytes {
    buf: PyUntypedBuffer,
}

impl Bytes {
    pub fn get(obj: &Bound<'_, PyAny>, what: &str, shape: &[usize]) -> PyResult<Bytes> {
        let buf = PyUntypedBuffer::get(obj)
            .map_err(|_| PyTypeError::new_err(format!("{what}: expected a numpy array")))?;
        if buf.item_size() != 1 {
            return Err(PyTypeError::new_err(format!(
                "{what}: expected a one-byte dtype (int8, uint8 or bool), got items of {} bytes",
                buf.item_size()
            )));
        }
        check_layout(
            what,
            buf.shape(),
            shape,
            buf.readonly(),
            buf.is_c_contiguous(),
            true,
        )?;
        Ok(Bytes { buf })
    }

    /// The bytes, to write. The GIL is held by the caller; numpy's own code does not run
    /// while the slice is used.
    #[allow(clippy::mut_from_ref)]
    pub fn slice(&self) -> &mut [u8] {
        // SAFETY: the buffer is C-contiguous, writable, of `item_count` one-byte items
        // (checked in `get`), and kept alive by `self.buf` for the slice's lifetime.
        unsafe {
            std::slice::from_raw_parts_mut(self.buf.buf_ptr() as *mut u8, self.buf.item_count())
        }
    }
}

/// A C-contiguous array of `T` (by numpy's type code) holding exactly `shape`.
pub struct Typed<T: pyo3::buffer::Element> {
    buf: PyBuffer<T>,
}

impl<T: pyo3::buffer::Element + Copy> Typed<T> {
    pub fn get(
        obj: &Bound<'_, PyAny>,
        what: &str,
        shape: &[usize],
        write: bool,
    ) -> PyResult<Typed<T>> {
        let buf = PyBuffer::<T>::get(obj).map_err(|e| {
            PyTypeError::new_err(format!(
                "{what}: expected a numpy array of {} ({e})",
                std::any::type_name::<T>()
            ))
        })?;
        check_layout(
            what,
            buf.shape(),
            shape,
            buf.readonly(),
            buf.is_c_contiguous(),
            write,
        )?;
        Ok(Typed { buf })
    }

    pub fn slice(&self) -> &[T] {
        // SAFETY: C-contiguous, `item_count` items of `T` (checked by PyBuffer::get and
        // `get`), alive as long as `self.buf`.
        unsafe { std::slice::from_raw_parts(self.buf.buf_ptr() as *const T, self.buf.item_count()) }
    }

    #[allow(clippy::mut_from_ref)]
    pub fn slice_mut(&self) -> &mut [T] {
        // SAFETY: as `slice`, and writable (checked in `get` when `write` was asked).
        unsafe {
            std::slice::from_raw_parts_mut(self.buf.buf_ptr() as *mut T, self.buf.item_count())
        }
    }
}

fn check_layout(
    what: &str,
    got: &[usize],
    want: &[usize],
    readonly: bool,
    contiguous: bool,
    write: bool,
) -> PyResult<()> {
    if got != want {
        return Err(PyValueError::new_err(format!(
            "{what}: expected shape {want:?}, got {got:?}"
        )));
    }
    if write && readonly {
        return Err(PyValueError::new_err(format!(
            "{what}: the array is read-only"
        )));
    }
    if !contiguous {
        return Err(PyValueError::new_err(format!(
            "{what}: the array must be C-contiguous"
        )));
    }
    Ok(())
}
