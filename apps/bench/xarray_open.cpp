#include "kerchunk/bench/xarray_open.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "bench/subprocess.h"
#include "bench/xarray_script.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench {
namespace {

struct Route {
  const char* label;
  const char* script_route;  // "fsspec" or "engine"
  bool packed;               // on the packed file, else on the JSON
};
constexpr Route kRoutes[] = {
    {"fsspec + zarr (JSON)", "fsspec", false},
    {"kerchunk_packed (packed)", "engine", true},
    {"kerchunk_packed (JSON)", "engine", false},
};

std::string PackagePath(const XarrayOpenOptions& options) {
  if (!options.package_path.empty()) return options.package_path;
  const char* env = std::getenv("KERCHUNK_PACKED_PATH");
  return env != nullptr ? env : "";
}

std::string Tail(const std::string& text, size_t n) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

double Number(const json::Value& doc, std::string_view name) {
  const json::Value* v = doc.Find(name);
  return v != nullptr && v->is_number() ? v->as_double() : 0.0;
}

std::string Text(const json::Value& doc, std::string_view name) {
  const json::Value* v = doc.Find(name);
  return v != nullptr && v->is_string() ? v->as_string() : "";
}

// Runs the script with one configuration; the parsed JSON it printed, after the import check.
Result<json::Value> RunScript(const XarrayOpenOptions& options, const std::string& config_path,
                              json::Value config) {
  if (!internal::FindProgram(options.interpreter)) {
    return NotFoundError("--xarray-open: Python interpreter {} not found", options.interpreter);
  }
  const std::string package_path = PackagePath(options);
  config.Set("package_path", json::Value::String(package_path));
  Result<internal::ProcessResult> run = internal::RunPythonScript(
      options.interpreter, internal::kXarrayOpenScript, package_path, config_path, config.Dump());
  KERCHUNK_RETURN_IF_ERROR(run.status());
  if (run->exit_code != 0) {
    return InternalError("--xarray-open: {} failed (exit {}): {}", options.interpreter,
                         run->exit_code, Tail(run->err, 600));
  }
  KERCHUNK_ASSIGN_OR_RETURN(json::Value doc, json::Value::Parse(run->out));
  const json::Value* importable = doc.Find("importable");
  if (importable == nullptr || importable->type() != json::Value::Type::kBool) {
    return InternalError("expected a JSON result from the xarray script, got '{}'",
                         Tail(run->out, 300));
  }
  if (!importable->as_bool()) {
    return UnsupportedError(
        "--xarray-open: {} cannot import xarray, zarr, fsspec and kerchunk_packed (package path: "
        "{}): {}. Build with -DKERCHUNK_PYTHON=ON and give its build/python with --xarray-open "
        "DIR or KERCHUNK_PACKED_PATH, or install the package (README, \"Python\")",
        options.interpreter, package_path.empty() ? "none given" : package_path,
        Text(doc, "error"));
  }
  return doc;
}

}  // namespace

Status CheckXarrayOpen(const XarrayOpenOptions& options) {
  json::Value config = json::Value::MakeObject();
  config.Set("probe", json::Value::Bool(true));
  const std::string path = (std::filesystem::temp_directory_path() /
                            fmt::format("kerchunk-xarray-probe-{}.json", ::getpid()))
                               .string();
  return RunScript(options, path, std::move(config)).status();
}

Result<XarrayOpenResult> RunXarrayOpen(const std::string& json_path, const std::string& packed_path,
                                       const std::string& scratch,
                                       const XarrayOpenOptions& options) {
  XarrayOpenResult result;
  std::string reference_digest;
  for (const Route& route : kRoutes) {
    json::Value config = json::Value::MakeObject();
    config.Set("route", json::Value::String(route.script_route));
    config.Set("index", json::Value::String(route.packed ? packed_path : json_path));
    auto doc = RunScript(options, scratch, std::move(config));
    if (!doc.ok()) return std::move(doc).status().Annotate(route.label);
    const std::string digest = Text(*doc, "digest");
    if (reference_digest.empty()) {
      reference_digest = digest;
      result.selection = Text(*doc, "selection");
      result.versions = Text(*doc, "versions");
    } else if (digest != reference_digest || Text(*doc, "selection") != result.selection) {
      return DataLossError("xarray open: {} read {} differently from {}", route.label,
                           Text(*doc, "selection"), kRoutes[0].label);
    }
    result.runs.push_back({route.label, Number(*doc, "open_seconds"),
                           Number(*doc, "select_seconds"),
                           static_cast<uint64_t>(Number(*doc, "start_rss_bytes")),
                           static_cast<uint64_t>(Number(*doc, "peak_rss_bytes"))});
  }
  return result;
}

}  // namespace kerchunk::bench
