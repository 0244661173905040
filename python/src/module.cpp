// kerchunk_packed._core: the pybind11 binding of StoreReader. It converts types and releases the
// GIL around parsing and reading, nothing else (the store logic is in store_reader.cpp, the
// zarr/xarray glue in the pure-Python layer). Errors become Python exceptions carrying the C++
// message: NotFound -> FileNotFoundError, IoError -> OSError, Internal -> RuntimeError, every
// other code (corrupt, newer format, invalid) -> ValueError.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "store_reader.h"

namespace py = pybind11;

namespace kerchunk::python {
namespace {

[[noreturn]] void Raise(const Status& status) {
  PyObject* type = PyExc_ValueError;
  switch (status.code()) {
    case StatusCode::kNotFound:
      type = PyExc_FileNotFoundError;
      break;
    case StatusCode::kIoError:
      type = PyExc_OSError;
      break;
    case StatusCode::kInternal:
      type = PyExc_RuntimeError;
      break;
    default:
      break;
  }
  PyErr_SetString(type, status.message().c_str());
  throw py::error_already_set();
}

template <typename T>
T ValueOrRaise(Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(*result);
}

StoreOptions MakeOptions(const std::vector<std::pair<std::string, std::string>>& rewrites) {
  StoreOptions options;
  for (const auto& [from, to] : rewrites) options.rewrites.push_back({from, to});
  return options;
}

StoreReader OpenIndex(const std::string& path,
                      const std::vector<std::pair<std::string, std::string>>& rewrites) {
  Result<StoreReader> reader = [&] {
    py::gil_scoped_release release;
    return StoreReader::Open(path, MakeOptions(rewrites));
  }();
  return ValueOrRaise(std::move(reader));
}

StoreReader ParseIndex(const py::bytes& text, const std::string& name,
                       const std::vector<std::pair<std::string, std::string>>& rewrites) {
  std::string_view view = text;  // the bytes object outlives the call
  Result<StoreReader> reader = [&] {
    py::gil_scoped_release release;
    return StoreReader::Parse(view, name, MakeOptions(rewrites));
  }();
  return ValueOrRaise(std::move(reader));
}

// bytes for a value, None for an absent key, (url, offset, length or None) for the caller to
// read.
py::list GetMany(const StoreReader& reader, const std::vector<std::string>& keys) {
  Result<std::vector<FetchedValue>> fetched = [&] {
    py::gil_scoped_release release;
    return reader.GetMany(keys);
  }();
  std::vector<FetchedValue> values = ValueOrRaise(std::move(fetched));
  py::list out(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    FetchedValue& v = values[i];
    switch (v.kind) {
      case FetchedValue::Kind::kAbsent:
        out[i] = py::none();
        break;
      case FetchedValue::Kind::kBytes:
        out[i] = py::bytes(v.bytes);
        break;
      case FetchedValue::Kind::kRemote:
        out[i] = py::make_tuple(
            v.url, v.offset, v.length ? py::object(py::int_(*v.length)) : py::object(py::none()));
        break;
    }
  }
  return out;
}

}  // namespace
}  // namespace kerchunk::python

PYBIND11_MODULE(_core, m) {
  using kerchunk::python::StoreReader;
  m.doc() = "C++ reader of packed and plain Kerchunk indexes (see kerchunk_packed.open_store)";
  py::class_<StoreReader>(m, "Index")
      .def(py::init(&kerchunk::python::OpenIndex), py::arg("path"), py::arg("rewrites"),
           "Opens a packed or plain Kerchunk JSON index file; rewrites: [(FROM, TO), ...]")
      .def_static("parse", &kerchunk::python::ParseIndex, py::arg("text"), py::arg("name"),
                  py::arg("rewrites"), "The same for index text already in memory")
      .def("get_many", &kerchunk::python::GetMany, py::arg("keys"),
           "Per key: bytes, None (absent), or (url, offset, length|None) to read elsewhere")
      .def(
          "contains",
          [](const StoreReader& r, const std::string& key) {
            return kerchunk::python::ValueOrRaise(r.Contains(key));
          },
          py::arg("key"))
      .def("entry_keys", &StoreReader::EntryKeys, "Keys that are not chunks, in index order")
      .def_property_readonly("packed", &StoreReader::packed)
      .def_property_readonly("key_count", &StoreReader::key_count);
}
