// One step of an all-pairs N-body simulation in single precision. A body is
// (x, y, z, vx, vy, vz, m); the acceleration on a body is the sum over all
// bodies of m_j * r / (|r|^2 + eps^2)^(3/2) (the softening eps also makes a
// body's pull on itself zero), then velocities and positions advance by dt
// (semi-implicit Euler). Timed by bench/whole (arrc_bench_whole).
type body = (float, float, float, float, float, float, float);
type vec3 = (float, float, float);

// The pull of body o on a body at (x, y, z).
def vec3 pull(float eps2, float x, float y, float z, body o) {
  let (ox, oy, oz, _vx, _vy, _vz, om) = o;
  let dx = ox - x;
  let dy = oy - y;
  let dz = oz - z;
  let inv = 1.0f / sqrt(dx * dx + dy * dy + dz * dz + eps2);
  let s = om * inv * inv * inv;
  return (s * dx, s * dy, s * dz);
}

def vec3 add3(vec3 a, vec3 b) = (a.0 + b.0, a.1 + b.1, a.2 + b.2);

def body advance(float dt, float eps2, body b, body[[*]] bodies) {
  let (x, y, z, vx, vy, vz, m) = b;
  let (ax, ay, az) = reduce(add3, (0.0f, 0.0f, 0.0f), [pull(eps2, x, y, z, o) | o <- bodies]);
  let nvx = vx + dt * ax;
  let nvy = vy + dt * ay;
  let nvz = vz + dt * az;
  return (x + dt * nvx, y + dt * nvy, z + dt * nvz, nvx, nvy, nvz, m);
}

// == test
// in: 0.1f 0.01f [(0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f), (1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f)]
// out: [(0.009998502f, 0.0f, 0.0f, 0.09998502f, 0.0f, 0.0f, 1.0f), (0.9900015f, 0.0f, 0.0f,
//      -0.09998502f, 0.0f, 0.0f, 1.0f)]
export body[[*]] nbody_step(float dt, float eps, body[[*]] bodies) =
  [advance(dt, eps * eps, b, bodies) | b <- bodies];
