// arrc::Cluster: the MPI side of distributed arrays (arrc/cluster.h).
// Every collective starts with sync(), the error agreement: one small
// MPI_Allreduce of "has this rank failed?", so that a rank that threw (and
// called fail()) meets the others at their next collective instead of
// leaving them waiting. Data moves through host memory (device -> host,
// MPI, host -> device): no GPU-aware MPI is assumed.
#include <arrc/cluster.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <tuple>

namespace arrc {

namespace {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string("MPI error in ") + what + ": " + std::string(text, static_cast<size_t>(len)));
}

int to_int(int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX)
    throw Error(std::string("arrc::Cluster: ") + what + " of " + std::to_string(v) +
                " exceeds what one MPI message can carry (2^31 - 1)");
  return static_cast<int>(v);
}

// A datatype of one row (row_bytes bytes), committed; freed by the guard.
struct RowType {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  explicit RowType(size_t row_bytes) {
    check_mpi(MPI_Type_contiguous(to_int(static_cast<int64_t>(row_bytes), "a row"), MPI_BYTE, &t),
              "MPI_Type_contiguous");
    check_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
  }
  ~RowType() {
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
  }
  RowType(const RowType&) = delete;
  RowType& operator=(const RowType&) = delete;
};

int live_clusters = 0;  // MPI is finalised with the last Cluster that initialised it

}  // namespace

Cluster::Cluster(MPI_Comm comm, ContextOptions options) {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    int provided = 0;
    check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init");
    owns_mpi_ = true;
  }
  ++live_clusters;
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_free(&node);
  if (options.device_index < 0) options.device_index = local_rank_;
  // A rank that cannot make its context must not leave the others waiting.
  std::string error;
  try {
    ctx_ = std::make_unique<Context>(options);
  } catch (const std::exception& e) {
    error = e.what();
  }
  int bad = error.empty() ? 0 : 1, any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm_);
  if (any) {
    std::string* mine = bad ? &error : nullptr;
    try {
      agree(mine);
    } catch (...) {
      MPI_Comm_free(&comm_);
      if (--live_clusters == 0 && owns_mpi_) MPI_Finalize();
      throw;
    }
  }
}

Cluster::~Cluster() {
  ctx_.reset();
  MPI_Comm_free(&comm_);
  if (--live_clusters == 0 && owns_mpi_) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
}

void Cluster::sync() {
  int mine = 0, any = 0;
  check_mpi(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_), "MPI_Allreduce");
  if (any) agree(nullptr);
}

void Cluster::fail(const std::string& message) {
  int mine = 1, any = 0;
  check_mpi(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_), "MPI_Allreduce");
  agree(&message);
}

// Every rank knows that some rank failed: the lowest failing rank's message
// becomes everybody's error.
void Cluster::agree(const std::string* mine) {
  int failed = mine ? 1 : 0;
  std::vector<int> flags(static_cast<size_t>(size_));
  check_mpi(MPI_Allgather(&failed, 1, MPI_INT, flags.data(), 1, MPI_INT, comm_), "MPI_Allgather");
  int root = static_cast<int>(std::find(flags.begin(), flags.end(), 1) - flags.begin());
  std::string text = mine ? *mine : std::string();
  int64_t len = static_cast<int64_t>(text.size());
  check_mpi(MPI_Bcast(&len, 1, MPI_INT64_T, root, comm_), "MPI_Bcast");
  text.resize(static_cast<size_t>(len));
  if (len > 0) check_mpi(MPI_Bcast(text.data(), to_int(len, "an error message"), MPI_CHAR, root, comm_), "MPI_Bcast");
  throw ClusterError(text);
}

void Cluster::clear_device_errors() {
  if (!ctx_) return;
  try {
    ctx_->check_errors();  // resets a record a failed call left behind
  } catch (...) {
  }
}

std::vector<int64_t> Cluster::allgather(int64_t v) {
  sync();
  std::vector<int64_t> all(static_cast<size_t>(size_));
  check_mpi(MPI_Allgather(&v, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, comm_), "MPI_Allgather");
  return all;
}

std::vector<unsigned char> Cluster::allgather_bytes(const void* data, size_t bytes) {
  sync();
  std::vector<unsigned char> all(bytes * static_cast<size_t>(size_));
  if (bytes == 0) return all;
  int n = to_int(static_cast<int64_t>(bytes), "a partial result");
  check_mpi(MPI_Allgather(data, n, MPI_BYTE, all.data(), n, MPI_BYTE, comm_), "MPI_Allgather");
  return all;
}

void Cluster::broadcast(void* data, size_t bytes, int root) {
  sync();
  if (bytes == 0) return;
  check_mpi(MPI_Bcast(data, to_int(static_cast<int64_t>(bytes), "a broadcast"), MPI_BYTE, root, comm_),
            "MPI_Bcast");
}

void Cluster::barrier() {
  sync();
  check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
}

void Cluster::allgather_rows(const void* mine, const Partition& part, size_t row_bytes, void* out) {
  sync();
  if (row_bytes == 0 || part.total() == 0) return;
  RowType row(row_bytes);
  std::vector<int> counts(static_cast<size_t>(size_)), displs(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r) {
    counts[r] = to_int(part.count(r), "a rank's rows");
    displs[r] = to_int(part.lo(r), "a row offset");
  }
  check_mpi(MPI_Allgatherv(mine, counts[rank_], row.t, out, counts.data(), displs.data(), row.t, comm_),
            "MPI_Allgatherv");
}

void Cluster::exchange_rows(const Partition& held, const std::vector<int64_t>& need, size_t row_bytes,
                            const std::function<void(int64_t, int64_t, unsigned char*)>& read_rows,
                            unsigned char* out) {
  // what this rank sends to each rank q (its rows that q needs), read first:
  // a failing read must happen before the collective (see sync())
  int P = size_, me = rank_;
  std::vector<int> scount(P, 0), sdispl(P, 0), rcount(P, 0), rdispl(P, 0);
  int64_t total = 0;
  for (int q = 0; q < P; ++q) {
    int64_t l = std::max(held.lo(me), need[2 * q]), h = std::min(held.hi(me), need[2 * q + 1]);
    if (q != me && h > l) {
      scount[q] = to_int(h - l, "rows sent");
      sdispl[q] = to_int(total, "rows sent");
      total += h - l;
    }
  }
  std::vector<unsigned char> send(static_cast<size_t>(total) * row_bytes);
  for (int q = 0; q < P; ++q)
    if (scount[q] > 0) {
      int64_t l = std::max(held.lo(me), need[2 * q]);
      read_rows(l, l + scount[q], send.data() + static_cast<size_t>(sdispl[q]) * row_bytes);
    }
  int64_t nlo = need[2 * me];
  for (int r = 0; r < P; ++r) {
    int64_t l = std::max(held.lo(r), nlo), h = std::min(held.hi(r), need[2 * me + 1]);
    if (r != me && h > l) {
      rcount[r] = to_int(h - l, "rows received");
      rdispl[r] = to_int(l - nlo, "rows received");
    }
  }
  sync();
  if (row_bytes == 0) return;
  RowType row(row_bytes);
  check_mpi(MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), row.t, out, rcount.data(), rdispl.data(),
                          row.t, comm_),
            "MPI_Alltoallv");
}

void Cluster::reduce_scatter(const void* mine, void* out, int64_t n, MPI_Datatype type, MPI_Op op) {
  sync();
  Partition part = Partition::block(n, size_);
  std::vector<int> counts(static_cast<size_t>(size_));
  for (int r = 0; r < size_; ++r) counts[r] = to_int(part.count(r), "a rank's bins");
  if (n == 0) return;
  check_mpi(MPI_Reduce_scatter(mine, out, counts.data(), type, op, comm_), "MPI_Reduce_scatter");
}

std::vector<unsigned char> Cluster::alltoallv_bytes(const std::vector<std::vector<unsigned char>>& sends,
                                                    std::vector<int64_t>& recv_bytes) {
  sync();
  int P = size_;
  std::vector<int64_t> sb(P), rb(P);
  for (int q = 0; q < P; ++q) sb[q] = static_cast<int64_t>(sends[q].size());
  check_mpi(MPI_Alltoall(sb.data(), 1, MPI_INT64_T, rb.data(), 1, MPI_INT64_T, comm_), "MPI_Alltoall");
  std::vector<int> sc(P), sd(P), rc(P), rd(P);
  std::vector<unsigned char> send, recv;
  int64_t st = 0, rt = 0;
  for (int q = 0; q < P; ++q) {
    sc[q] = to_int(sb[q], "bytes sent");
    sd[q] = to_int(st, "bytes sent");
    st += sb[q];
    rc[q] = to_int(rb[q], "bytes received");
    rd[q] = to_int(rt, "bytes received");
    rt += rb[q];
  }
  send.reserve(static_cast<size_t>(st));
  for (auto& s : sends) send.insert(send.end(), s.begin(), s.end());
  recv.resize(static_cast<size_t>(rt));
  check_mpi(MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, recv.data(), rc.data(), rd.data(),
                          MPI_BYTE, comm_),
            "MPI_Alltoallv");
  recv_bytes = rb;
  return recv;
}

namespace dist {

std::vector<std::vector<int64_t>> sort_cuts(Cluster& cl, int64_t n,
                                            const std::function<uint64_t(int64_t)>& key_at) {
  const int P = cl.size(), me = cl.rank();
  struct Sample {
    uint64_t key;
    int64_t rank, pos;
  };
  auto less = [](const Sample& a, const Sample& b) {
    return std::tie(a.key, a.rank, a.pos) < std::tie(b.key, b.rank, b.pos);
  };
  const int64_t per = std::min<int64_t>(n, 16 * static_cast<int64_t>(P));
  std::vector<Sample> mine;
  for (int64_t k = 0; k < per; ++k) {
    int64_t pos = (k * n) / per + n / (2 * per);
    mine.push_back({key_at(pos), me, pos});
  }
  std::vector<std::vector<unsigned char>> to_all(static_cast<size_t>(P));
  for (int q = 0; q < P; ++q)
    to_all[q].assign(reinterpret_cast<const unsigned char*>(mine.data()),
                     reinterpret_cast<const unsigned char*>(mine.data() + mine.size()));
  std::vector<int64_t> got_bytes;
  std::vector<unsigned char> got = cl.alltoallv_bytes(to_all, got_bytes);
  std::vector<Sample> all(got.size() / sizeof(Sample));
  if (!all.empty()) std::memcpy(all.data(), got.data(), all.size() * sizeof(Sample));
  std::sort(all.begin(), all.end(), less);
  // this rank's cuts: the first local element not below each splitter
  std::vector<int64_t> cut(static_cast<size_t>(P) + 1, n);
  cut[0] = 0;
  for (int q = 1; q < P; ++q) {
    if (all.empty()) continue;
    const Sample& s = all[(static_cast<size_t>(q) * all.size()) / static_cast<size_t>(P)];
    int64_t lo = cut[q - 1], hi = n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      Sample e{key_at(mid), me, mid};
      if (less(e, s)) lo = mid + 1;
      else hi = mid;
    }
    cut[q] = lo;
  }
  // everybody's cuts
  auto bytes = cl.allgather_bytes(cut.data(), cut.size() * sizeof(int64_t));
  std::vector<std::vector<int64_t>> cuts(static_cast<size_t>(P), std::vector<int64_t>(static_cast<size_t>(P) + 1));
  for (int r = 0; r < P; ++r)
    std::memcpy(cuts[r].data(), bytes.data() + static_cast<size_t>(r) * (P + 1) * sizeof(int64_t),
                (P + 1) * sizeof(int64_t));
  return cuts;
}

void exchange_buckets(Cluster& cl, size_t elem, const std::vector<std::vector<int64_t>>& cuts,
                      const std::function<void(int64_t, int64_t, void*)>& read,
                      const std::function<void(int64_t, int64_t, const void*)>& write,
                      const std::function<void(int64_t, int64_t, int64_t)>& copy_own) {
  const int P = cl.size(), me = cl.rank();
  const std::vector<int64_t>& c = cuts[me];
  int64_t n = c[P];
  // what leaves: the elements before and after this rank's own bucket
  std::vector<unsigned char> send(static_cast<size_t>(n - (c[me + 1] - c[me])) * elem);
  if (c[me] > 0) read(0, c[me], send.data());
  if (n > c[me + 1]) read(c[me + 1], n, send.data() + static_cast<size_t>(c[me]) * elem);
  std::vector<int> sc(P), sd(P), rc(P), rd(P);  // in elements
  int64_t before = 0, total = 0;  // received elements from lower ranks, in all
  for (int q = 0; q < P; ++q) {
    int64_t s = q == me ? 0 : c[q + 1] - c[q];
    int64_t sdis = q < me ? c[q] : q > me ? c[q] - (c[me + 1] - c[me]) : 0;
    int64_t r = q == me ? 0 : cuts[q][me + 1] - cuts[q][me];
    sc[q] = to_int(s, "elements sent");
    sd[q] = to_int(sdis, "elements sent");
    rc[q] = to_int(r, "elements received");
    rd[q] = to_int(total, "elements received");
    if (q < me) before += r;
    total += r;
  }
  std::vector<unsigned char> recv(static_cast<size_t>(total) * elem);
  cl.sync();
  if (elem > 0) {
    RowType t(elem);
    check_mpi(MPI_Alltoallv(send.data(), sc.data(), sd.data(), t.t, recv.data(), rc.data(), rd.data(), t.t,
                            cl.comm()),
              "MPI_Alltoallv");
  }
  // the new column: runs of ranks below, this rank's own bucket (on the device), runs of ranks above
  int64_t own = c[me + 1] - c[me];
  if (before > 0) write(0, before, recv.data());
  if (own > 0) copy_own(c[me], before, own);
  if (total > before) write(before + own, total + own, recv.data() + static_cast<size_t>(before) * elem);
}

}  // namespace dist
}  // namespace arrc
