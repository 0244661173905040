#include "run_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "kerchunk/json/json_value.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::internal {
namespace {

constexpr std::string_view kPackedSuffix = ".packed.json";

}  // namespace

Status CheckOutputPath(const std::string& path) {
  if (path.empty()) return InvalidArgumentError("no output file: give -o FILE (or -o - )");
  if (path == "-") return OkStatus();
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    return NotFoundError("{}: cannot write the output: folder {} does not exist", path,
                         folder.string());
  }
  if (std::filesystem::is_directory(path, ec)) {
    return InvalidArgumentError("{}: the output is a folder; give a file name", path);
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return IoError("{}: cannot write the output: folder {} is not writable", path, folder.string());
  }
  return OkStatus();
}

bool WantsPacked(const std::string& path, bool packed) {
  return packed || path.ends_with(kPackedSuffix);
}

Result<uint64_t> WriteReferences(const std::string& path, const ReferenceSet& refs,
                                 const WriteOptions& options, std::ostream& stdout_stream,
                                 const std::vector<SourceFileRecord>& sources, bool packed) {
  std::vector<std::string> parts;
  if (WantsPacked(path, packed)) {
    // Packed from the columns in memory: the output plus small tables, no JSON text of every
    // reference (which would be ~100 bytes a reference on top of the model's ~28).
    KERCHUNK_ASSIGN_OR_RETURN(pack::PackedText p, pack::Pack(refs, {.binary = true}));
    AppendSourceRecord(sources, p.text);
    parts.push_back(pack::CompactPackedFile(p));
  } else {
    // Written part by part (serialized on every core for a large set), never copied into one
    // string. The record goes first in the document, into the small opening part, so that
    // verify reads it without parsing the references.
    parts = SerializeKerchunkJsonParts(refs, options);
    PrependSourceRecord(sources, parts.front());
  }
  uint64_t bytes = 0;
  for (const std::string& part : parts) bytes += part.size();
  if (path == "-") {
    for (const std::string& part : parts) {
      stdout_stream.write(part.data(), static_cast<std::streamsize>(part.size()));
    }
    stdout_stream.flush();
    if (!stdout_stream) return IoError("cannot write the references to standard output");
    return bytes;
  }
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(path, parts));
  return bytes;
}

std::string ConcatDimsText(const CombineOptions& options) {
  std::string out;
  for (const std::string& d : options.outer_dims) out += d + ",";
  return out + (options.concat_dim.empty() ? "time" : options.concat_dim);
}

void GroupedWarnings::Add(const std::string& path, const std::string& message) {
  auto [it, inserted] = index_.emplace(message, groups_.size());
  if (inserted) groups_.push_back({message, path, 0});
  ++groups_[it->second].files;
}

std::vector<std::string> GroupedWarnings::Lines() const {
  std::vector<std::string> lines;
  for (const Group& g : groups_) {
    std::string line = g.first_path + ": " + g.message;
    if (g.files > 1) {
      line += fmt::format(" (and {} more file{})", g.files - 1, g.files > 2 ? "s" : "");
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void Warn(const CommandStreams& streams, const std::string& command, bool quiet,
          const std::string& message) {
  if (quiet) return;
  streams.err << fmt::format("kerchunk {}: warning: {}\n", command, message);
}

void EmitSummary(const RunSummary& summary, SummaryFormat format, bool quiet,
                 const CommandStreams& streams) {
  if (format == SummaryFormat::kJson) {
    std::ostream& target = summary.output == "-" ? streams.err : streams.out;
    target << FormatSummaryJson(summary);
    target.flush();
    return;
  }
  if (!quiet) streams.err << FormatSummaryText(summary);
}

Status NameFile(Status status, const std::string& path) {
  if (status.ok() || status.message().find(path) != std::string::npos) return status;
  return std::move(status).Annotate(path);
}

std::vector<SourceFileRecord> SourcesOf(const ReferenceSet& refs,
                                        const std::vector<SourceFileRecord>& known) {
  std::unordered_map<std::string_view, const SourceFileRecord*> by_url;
  for (const SourceFileRecord& r : known) by_url.emplace(r.url, &r);
  std::vector<SourceFileRecord> out;
  for (const std::string& url : refs.urls.urls()) {
    auto it = by_url.find(url);
    if (it != by_url.end()) out.push_back(*it->second);
  }
  return out;
}

Status FinishRun(const ReferenceSet& refs, const std::string& output, const WriteOptions& write,
                 bool packed, std::chrono::steady_clock::time_point start, SummaryFormat format,
                 bool quiet, const CommandStreams& streams, RunSummary& summary,
                 const std::vector<SourceFileRecord>& sources) {
  CountReferences(refs, summary);
  summary.packed = WantsPacked(output, packed);
  KERCHUNK_ASSIGN_OR_RETURN(summary.output_bytes,
                            WriteReferences(output, refs, write, streams.out, sources, packed));
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.peak_rss_bytes = PeakRssBytes();
  EmitSummary(summary, format, quiet, streams);
  return OkStatus();
}

}  // namespace kerchunk::internal
