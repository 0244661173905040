#include "cli_testing.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "kerchunk/json/kerchunk_json.h"

namespace kerchunk::testing {

CommandResult RunKerchunk(const std::string& args, int timeout_seconds) {
  return RunCommand("timeout " + std::to_string(timeout_seconds) + " " +
                    ShellQuote(KerchunkBinary()) + " " + args);
}

std::vector<std::string> FilesIn(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

::testing::AssertionResult IsOneLineError(const CommandResult& r, const std::string& command,
                                          const std::string& must_name) {
  if (r.exit_code != 2) {
    return ::testing::AssertionFailure() << "exit status " << r.exit_code << ", stderr: " << r.err;
  }
  std::string prefix = "kerchunk " + command + ": error: ";
  if (r.err.rfind(prefix, 0) != 0) return ::testing::AssertionFailure() << "stderr: " << r.err;
  if (r.err.find('\n') != r.err.size() - 1) {
    return ::testing::AssertionFailure() << "not one line: " << r.err;
  }
  if (r.err.find(must_name) == std::string::npos) {
    return ::testing::AssertionFailure() << "does not name " << must_name << ": " << r.err;
  }
  if (!r.out.empty()) return ::testing::AssertionFailure() << "stdout: " << r.out;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult RangesInside(const ReferenceSet& refs, uint64_t file_size) {
  for (const Entry& e : refs.entries) {
    if (e.value.kind == EntryValue::Kind::kRange && e.value.offset + e.value.length > file_size) {
      return ::testing::AssertionFailure()
             << e.key << " ends at " << e.value.offset + e.value.length
             << ", past the end of the file (" << file_size << ")";
    }
  }
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      ChunkRef c = a.Get(i);
      if (c.kind == RefKind::kRange && (c.offset > file_size || c.length > file_size - c.offset)) {
        return ::testing::AssertionFailure()
               << a.KeyPrefix() << a.grid().Key(a.chunk_index(i)) << " = [" << c.offset << ", "
               << c.length << "] ends past the end of the file (" << file_size << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult ReferenceFileRangesInside(const std::string& refs_path,
                                                     uint64_t file_size) {
  auto refs = ReadKerchunkFile(refs_path);
  if (!refs.ok()) return ::testing::AssertionFailure() << refs.status().message();
  return RangesInside(*refs, file_size);
}

namespace {
std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

std::string TruncatedCopy(const std::string& source, const std::filesystem::path& dir,
                          uint64_t size) {
  std::string bytes = Slurp(source);
  bytes.resize(std::min<uint64_t>(size, bytes.size()));
  std::string path = (dir / ("cut" + std::to_string(size) + "_" +
                             std::filesystem::path(source).filename().string()))
                         .string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string FlippedCopy(const std::string& source, const std::filesystem::path& dir,
                        uint64_t offset) {
  std::string bytes = Slurp(source);
  if (offset < bytes.size()) bytes[offset] = static_cast<char>(~bytes[offset]);
  std::string path = (dir / ("flip" + std::to_string(offset) + "_" +
                             std::filesystem::path(source).filename().string()))
                         .string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string CliTest::Inputs(const std::vector<std::string>& paths) {
  std::string args;
  for (const auto& p : paths) args += " " + ShellQuote(p);
  return args;
}

}  // namespace kerchunk::testing
