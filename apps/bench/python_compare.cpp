#include "kerchunk/bench/python_compare.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "bench/python_script.h"
#include "bench/subprocess.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench {
namespace {

std::string ResolveSearchPath(const PythonCompareOptions& options) {
  if (!options.kerchunk_path.empty()) return options.kerchunk_path;
  const char* env = std::getenv("KERCHUNK_PYTHON_PATH");
  return env != nullptr ? env : "";
}

std::string ConfigJson(const std::vector<std::string>& files, const std::string& concat_dim,
                       const std::string& our_json, const std::string& output_json, unsigned repeat,
                       const std::string& search_path, bool probe = false) {
  json::Value config = json::Value::MakeObject();
  if (probe) config.Set("probe", json::Value::Bool(true));
  json::Value list = json::Value::MakeArray();
  for (const std::string& f : files) list.Push(json::Value::String(f));
  config.Set("files", std::move(list));
  config.Set("concat_dim", json::Value::String(concat_dim));
  config.Set("ours", json::Value::String(our_json));
  config.Set("output", json::Value::String(output_json));
  config.Set("repeat", json::Value::Uint(repeat));
  config.Set("kerchunk_path", json::Value::String(search_path));
  return config.Dump();
}

std::string Tail(const std::string& text, size_t n) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

double NumberField(const json::Value& doc, std::string_view name) {
  const json::Value* v = doc.Find(name);
  return v != nullptr && v->is_number() ? v->as_double() : 0.0;
}

std::string StringField(const json::Value& doc, std::string_view name) {
  const json::Value* v = doc.Find(name);
  return v != nullptr && v->is_string() ? v->as_string() : "";
}

Result<PythonResult> ParseOutput(const std::string& out, const std::string& search_path,
                                 const PythonCompareOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(json::Value doc, json::Value::Parse(out));
  const json::Value* importable = doc.Find("importable");
  if (importable == nullptr || importable->type() != json::Value::Type::kBool) {
    return InternalError("expected a JSON result from the Python script, got '{}'", Tail(out, 300));
  }
  if (!importable->as_bool()) {
    return UnsupportedError(
        "--compare-python: Python kerchunk is not importable with {} (kerchunk path: {}): {}. "
        "Give a kerchunk checkout with --compare-python DIR or KERCHUNK_PYTHON_PATH",
        options.interpreter, search_path.empty() ? "none given" : search_path,
        StringField(doc, "error"));
  }
  PythonResult r;
  r.version = StringField(doc, "version");
  r.python = StringField(doc, "python");
  r.search_path = search_path;
  const json::Value* ujson = doc.Find("real_ujson");
  r.real_ujson = ujson != nullptr && ujson->type() == json::Value::Type::kBool && ujson->as_bool();
  r.scan_seconds = NumberField(doc, "scan_seconds");
  r.translate_seconds = NumberField(doc, "translate_seconds");
  r.combine_seconds = NumberField(doc, "combine_seconds");
  r.write_seconds = NumberField(doc, "write_seconds");
  r.json_bytes = static_cast<uint64_t>(NumberField(doc, "json_bytes"));
  r.load_theirs_seconds = NumberField(doc, "load_theirs_seconds");
  r.load_ours_seconds = NumberField(doc, "load_ours_seconds");
  r.peak_rss_bytes = static_cast<uint64_t>(NumberField(doc, "peak_rss_bytes"));
  return r;
}

// Runs the bench script with the configuration `config_text`; the kerchunk search path is the
// whole PYTHONPATH.
Result<internal::ProcessResult> RunBenchScript(const PythonCompareOptions& options,
                                               const std::string& search_path,
                                               const std::string& config_path,
                                               const std::string& config_text) {
  return internal::RunPythonScript(options.interpreter, internal::kPythonKerchunkBenchScript,
                                   search_path, config_path, config_text);
}

}  // namespace

Status CheckPythonKerchunk(const PythonCompareOptions& options) {
  if (!internal::FindProgram(options.interpreter)) {
    return NotFoundError("--compare-python: Python interpreter {} not found", options.interpreter);
  }
  const std::string search_path = ResolveSearchPath(options);
  const std::string config_path =
      (std::filesystem::temp_directory_path() / fmt::format("kerchunk-probe-{}.json", ::getpid()))
          .string();
  Result<internal::ProcessResult> run = RunBenchScript(
      options, search_path, config_path, ConfigJson({}, "", "", "", 1, search_path, true));
  KERCHUNK_RETURN_IF_ERROR(run.status());
  if (run->exit_code != 0) {
    return InternalError("--compare-python: {} failed (exit {}): {}", options.interpreter,
                         run->exit_code, Tail(run->err, 600));
  }
  return ParseOutput(run->out, search_path, options).status();
}

Result<PythonResult> RunPythonKerchunk(const std::vector<std::string>& files,
                                       const std::string& concat_dim, const std::string& our_json,
                                       const std::string& output_json, unsigned repeat,
                                       const PythonCompareOptions& options) {
  if (!internal::FindProgram(options.interpreter)) {
    return NotFoundError("--compare-python: Python interpreter {} not found", options.interpreter);
  }
  const std::string search_path = ResolveSearchPath(options);
  const std::string config_path = output_json + ".config.json";
  Result<internal::ProcessResult> run =
      RunBenchScript(options, search_path, config_path,
                     ConfigJson(files, concat_dim, our_json, output_json, repeat, search_path));
  KERCHUNK_RETURN_IF_ERROR(run.status());
  if (run->exit_code != 0) {
    return InternalError("Python kerchunk failed (exit {}): {}", run->exit_code,
                         Tail(run->err, 600));
  }
  KERCHUNK_ASSIGN_OR_RETURN(PythonResult result, ParseOutput(run->out, search_path, options));
  result.json_path = output_json;
  return result;
}

}  // namespace kerchunk::bench
