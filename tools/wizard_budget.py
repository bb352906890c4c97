#!/usr/bin/env python3
"""Measures the wizard's budgets (SPEC §10, issue 8) in real tmux panes and fails when one is exceeded.

Usage: wizard_budget.py [--binary .build/release/facecap] [--seconds 60] [--bytes-seconds 20]
                        [--launches 10] [--soak [--soak-seconds 345]] [--clip colour|mono]
                        [--noise SIGMA] [--light FACTOR] [--term tmux-256color]
                        [--only start,bytes,still,cpu,capture] [--json FILE]
                        [--compare OTHER_FACECAP [--rounds 3]]
(used by `make bench-wizard`; `make bench-wizard ARGS=--soak` adds the 10 000-frame memory run).

What it does
- Makes its own clip (cached in .cache/bench/): 640×480, 30 fps, 3 s looped; sergey.png (colour, Pillow) or
  sergey's luma (mono, no dependencies) on a plain wall, swaying ±0.12 of the frame width with a period of
  3 s. The face never holds still for the 1 s stability window (it crosses the oval faster than the
  hold-still speed and is off centre the rest of the time), so the wizard stays on the live preview;
  `--manual-after 3600` keeps the manual-capture offer away too. `--noise SIGMA` adds webcam-like
  Gaussian noise to the colour clip's luma (the preview's colour hysteresis should absorb most of it);
  `--light FACTOR` scales the luma (0.35: a face too dark, whose hand model runs at the framing pace).
- Runs `facecap --no-tutorial --input CLIP --loop --color 256 --manual-after 3600 --output TMP` in a
  detached tmux pane of the chosen size, on a private tmux server (its own socket, no user config, no
  status line), TERM=tmux-256color, LANG=C.UTF-8. facecap is started only once `tmux pipe-pane` feeds the
  pane's output to this script's reader, which timestamps every chunk (CLOCK_MONOTONIC) and keeps the
  bytes, so every byte facecap sends to the terminal is counted and timed.
- Samples /proc/PID/stat (utime+stime), /proc/PID/status (VmRSS, VmHWM) and /proc/PID/io once a second.

The measures
- start: launch (the launcher's last moment before execve of facecap) to the first chunk of pane output
  that holds a preview cell '▀'; the median of --launches launches, each in a fresh pane.
- bytes per preview frame: ncurses sends each update as a burst of writes within a millisecond or two and
  the clip paces frames 33 ms apart, so the pane output is split into bursts at gaps of --gap-ms (default
  8 ms) and each burst is one drawn frame (a text-only redraw, e.g. a countdown, rides on the frame drawn
  with it). Over the steady state (from --warmup s after the first preview to the end) the bytes of each
  whole second are divided by the bursts that started in it; the median of those per-second ratios is the
  figure checked against the budget, with the median burst size and the drawn frame rate as cross-checks.
  Runs at 80×24 and 200×60 for --bytes-seconds each (the 100×32 CPU run is reported too).
- CPU: (utime+stime) of facecap from launch to the end of a --seconds run at 100×32, over the wall time,
  as a percentage of one core (the launcher's own CPU before exec is subtracted); also the steady state.
- memory: peak RSS (VmHWM) of every run; RSS at ~frame 1 000 (33 s) and at the end of the CPU run; with
  --soak, a --soak-seconds run (≥ 340 s) and RSS at ~frame 1 000 and ~frame 10 000 (333 s), which must
  stay within ±2 MB of each other. Frame numbers assume the clip's 30 fps (the replay only slows down when
  facecap falls behind, which the CPU figure would show).

- compare (`--compare OTHER`): the CPU run of OTHER and of --binary in turn, --rounds times, the order swapped
  every round (A B, B A, …), each --seconds long at 100×32 on the same clip: the steady-state CPU of each binary
  (median and range), the ratio this/other within each round and the median of those ratios — the figure to
  quote on a shared machine, where load moves both alike. With `--only compare` nothing else runs. Each run also
  prints its FACECAP_FRAME_STATS: frames analysed and read a second (the wizard analyses about 15 a second,
  `AnalysisCadence`) and the arrival → guidance time of the analysed frames (p50/p99).

- capture (SPEC §10's "capture session"): the face held still in the oval, so the wizard captures it (~1.5 s), the
  built-in validator checks the photo, the photo and report are saved and the Success screen ends the run; VmHWM
  is read every 20 ms up to the exit and counts in the peak RSS.

- still scene (issue 18): the same face held still beside the oval (off centre, so nothing is captured and
  the guidance stays put), with webcam-like noise (σ --still-noise levels) at 80×24: the bytes of each whole
  second from 1 s after the first preview, over the camera's 30 frames in that second; the median.

Budgets: start ≤ 300 ms, bytes per frame at 80×24 ≤ 16 KB (16 384 B) on the moving face and ≤ 1 KB per
camera frame on the still scene, CPU ≤ 25 % (SPEC §10; issue 18 asks 15 %, reported beside it), peak RSS ≤
60 MB, RSS flat ±2 MB from frame 1 000 to 10 000. Exit status 1 when one is exceeded, 2 when a run went wrong.
The machine's load (/proc/loadavg) is printed before each run; on a shared machine quote medians and
repeat when the load is high.
"""
import argparse
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HALF_BLOCK = '▀'.encode()
CLK_TCK = os.sysconf('SC_CLK_TCK')
FPS = 30
CLIP_SECONDS = 3
BUDGETS = {'start_ms': 300, 'bytes_per_frame_80x24': 16 * 1024, 'still_bytes_per_camera_frame_80x24': 1024,
           'cpu_percent': 25.0, 'peak_rss_mb': 60.0, 'rss_drift_mb': 2.0}
# Issue 18's tighter aim for the whole wizard, printed next to the SPEC's budget.
CPU_AIM_PERCENT = 15.0
STILL_ASIDE = (0.68, 0.5)   # the still scene's face: beside the oval (centre 0.5), so it is never captured
# sergey's face box in the 600×600 photo (landmark bounds, as in Tests/FaceCapCLITests/TestClips.swift).
FACE_BOX = (136.0, 141.5, 320.0, 367.0)
FACE_WIDTH = 0.38       # of the frame width: inside the accepted 0.28…0.52
SWAY = 0.12             # ± of the frame width around the centre, one period per clip
WALL = (178, 170, 160)  # the wall behind the face


# MARK: - The clip

def face_path(i, still=False):
    """Face centre (x, y) in frame fractions for frame i: a sway, and a little vertical bob (still: centred)."""
    import math
    if still == 'aside':
        return STILL_ASIDE
    if still:
        return 0.5, 0.5
    phase = 2 * math.pi * i / (FPS * CLIP_SECONDS)
    return 0.5 + SWAY * math.sin(phase), 0.5 + 0.02 * math.sin(2 * phase)


def make_clip(kind, path, noise=0.0, still=False, light=1.0):
    frames = FPS * CLIP_SECONDS
    scale = FACE_WIDTH * 640 / FACE_BOX[2]
    cx, cy = FACE_BOX[0] + FACE_BOX[2] / 2, FACE_BOX[1] + FACE_BOX[3] / 2
    tmp = path + '.part'
    with open(tmp, 'wb') as out:
        if kind == 'mono':
            with open(os.path.join(ROOT, 'Tests/Fixtures/images/sergey_luma.pgm'), 'rb') as f:
                luma = f.read()[15:]
            wall = (77 * WALL[0] + 150 * WALL[1] + 29 * WALL[2] + 128) >> 8
            out.write(b'YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono XCOLORRANGE=FULL\n')
            for i in range(frames):
                fx, fy = face_path(i, still)
                frame = bytearray([wall]) * (640 * 480)
                sxs = [int((px + 0.5 - fx * 640) / scale + cx) for px in range(640)]
                for y in range(480):
                    sy = int((y + 0.5 - fy * 480) / scale + cy)
                    if not 0 <= sy < 600:
                        continue
                    row = sy * 600
                    line = bytes(luma[row + sx] if 0 <= sx < 600 else wall for sx in sxs)
                    frame[y * 640:(y + 1) * 640] = line
                if light != 1:
                    frame = frame.translate(bytes(min(255, round(v * light)) for v in range(256)))
                out.write(b'FRAME\n')
                out.write(frame)
        else:
            from PIL import Image, ImageChops
            photo = Image.open(os.path.join(ROOT, 'Tests/Fixtures/sergey.png')).convert('RGB')
            out.write(b'YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n')
            for i in range(frames):
                fx, fy = face_path(i, still)
                # Output pixel (x, y) shows photo pixel ((x - fx·640) / scale + cx, …): an affine map.
                coefficients = (1 / scale, 0, cx - fx * 640 / scale, 0, 1 / scale, cy - fy * 480 / scale)
                frame = photo.transform((640, 480), Image.AFFINE, coefficients, resample=Image.BILINEAR,
                                        fillcolor=WALL)
                y, cb, cr = frame.convert('YCbCr').split()
                if noise:
                    # Sensor-like noise on the luma: Gaussian, σ = `noise` levels (effect_noise centres it on 128).
                    y = ImageChops.add(y, Image.effect_noise((640, 480), noise), scale=1, offset=-128)
                if light != 1:
                    y = y.point(lambda v: min(255, round(v * light)))
                out.write(b'FRAME\n')
                out.write(y.tobytes())
                out.write(cb.resize((320, 240), Image.BOX).tobytes())
                out.write(cr.resize((320, 240), Image.BOX).tobytes())
    os.replace(tmp, path)


def clip_path(kind, noise=0.0, still=False, light=1.0):
    """The clip, made once into .cache/bench; `still`: the face held in the oval (auto-captured in ~1.5 s)."""
    directory = os.path.join(ROOT, '.cache', 'bench')
    os.makedirs(directory, exist_ok=True)
    name = f'wizard-{kind}-v1' + ({'aside': '-still-aside'}.get(still, '-still') if still else '') + \
        (f'-noise{noise:g}' if noise else '') + (f'-light{light:g}' if light != 1 else '')
    path = os.path.join(directory, name + '.y4m')
    if not os.path.exists(path):
        make_clip(kind, path, noise, still, light)
    return path


# MARK: - Helpers that run inside the pane

def pipe_reader(prefix):
    """`tmux pipe-pane` target: keeps the bytes (PREFIX.raw) and when each chunk came (PREFIX.idx)."""
    raw = os.open(prefix + '.raw', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    index = []
    with open(prefix + '.ready', 'w'):
        pass
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        index.append((time.monotonic(), len(chunk)))
        os.write(raw, chunk)
    os.close(raw)
    with open(prefix + '.idx', 'wb') as f:
        for t, n in index:
            f.write(struct.pack('<dI', t, n))
    with open(prefix + '.done', 'w'):
        pass


def launcher(spec_path):
    """The pane's command: waits for the go signal, notes the launch time and its own CPU, execs facecap."""
    with open(spec_path) as f:
        spec = json.load(f)
    with open(spec['go']) as f:    # a FIFO: blocks until the measuring side opens it
        f.read()
    cpu = os.times()
    with open(spec['launch'] + '.part', 'w') as f:
        json.dump({'pid': os.getpid(), 't': time.monotonic(), 'cpu': cpu.user + cpu.system}, f)
    os.replace(spec['launch'] + '.part', spec['launch'])
    os.chdir(spec['cwd'])
    os.execve(spec['argv'][0], spec['argv'], spec['env'])


# MARK: - tmux

class Tmux:
    def __init__(self, workdir):
        self.socket = f'facecap-budget-{os.getpid()}'
        self.config = os.path.join(workdir, 'tmux.conf')
        with open(self.config, 'w') as f:
            f.write('set -g status off\nset -g history-limit 100\nset -g remain-on-exit off\n')
        self.sessions = set()

    def __call__(self, *args, check=True):
        result = subprocess.run(['tmux', '-L', self.socket, '-f', self.config, *args], capture_output=True,
                                text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f'tmux {" ".join(args)}: {result.stderr.strip()}')
        return result.stdout

    def new(self, name, columns, rows, command):
        self('new-session', '-d', '-s', name, '-x', str(columns), '-y', str(rows), *command)
        self.sessions.add(name)

    def kill(self, name):
        if name in self.sessions:
            self('kill-session', '-t', '=' + name, check=False)
            self.sessions.discard(name)

    def kill_all(self):
        for name in list(self.sessions):
            self.kill(name)
        # The private server ends with its last session; tmux leaves its socket file behind.
        path = os.path.join(os.environ.get('TMUX_TMPDIR', '/tmp'), f'tmux-{os.getuid()}', self.socket)
        time.sleep(0.2)
        if os.path.exists(path) and subprocess.run(['tmux', '-L', self.socket, 'has-session'],
                                                   capture_output=True).returncode != 0:
            os.unlink(path)


# MARK: - One run

def proc_sample(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])    # utime, stime (fields 14 and 15)
    status = {}
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            key, _, value = line.partition(':')
            if key in ('VmRSS', 'VmHWM'):
                status[key] = int(value.split()[0])
    io = {}
    try:
        with open(f'/proc/{pid}/io') as f:
            for line in f:
                key, _, value = line.partition(':')
                io[key] = int(value)
    except OSError:
        pass
    return {'t': time.monotonic(), 'cpu_s': ticks / CLK_TCK, 'rss_kb': status.get('VmRSS', 0),
            'hwm_kb': status.get('VmHWM', 0), 'wchar': io.get('wchar', 0)}


def alive(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


def loadavg():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def run_pane(opts, tmux, workdir, name, columns, rows, seconds=None, until_preview=False, clip=None,
             sample_every=1.0):
    """Runs facecap in a fresh pane; returns launch time, samples (every `sample_every` s), the pane output
    chunks, the screen and the photos folder."""
    prefix = os.path.join(workdir, name)
    go = prefix + '.go'
    os.mkfifo(go)
    out_dir = os.path.join(workdir, name + '-photos')
    env = {k: v for k, v in os.environ.items() if k not in ('NO_COLOR', 'COLORTERM', 'LC_ALL', 'LANGUAGE')}
    env.update({'TERM': opts.term, 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8',
                'FACECAP_MODEL_DIR': os.environ.get('FACECAP_MODEL_DIR', os.path.join(ROOT, 'models')),
                'FACECAP_FRAME_STATS': prefix + '.frames.json'})
    argv = [os.path.abspath(opts.binary), '--no-tutorial', '--input', clip or opts.clip, '--loop', '--color', '256',
            '--manual-after', '3600', '--output', out_dir]
    with open(prefix + '.json', 'w') as f:
        json.dump({'go': go, 'launch': prefix + '.launch', 'cwd': workdir, 'argv': argv, 'env': env}, f)
    tmux.new(name, columns, rows, [sys.executable, os.path.abspath(__file__), '--launcher', prefix + '.json'])
    try:
        size = tmux('display-message', '-p', '-t', '=' + name + ':', '#{pane_width}x#{pane_height}').strip()
        if size != f'{columns}x{rows}':
            raise RuntimeError(f'pane is {size}, wanted {columns}x{rows}')
        tmux('pipe-pane', '-o', '-t', '=' + name + ':',
             f'exec {sys.executable} {os.path.abspath(__file__)} --pipe-reader {prefix}')
        wait_for(lambda: os.path.exists(prefix + '.ready'), 10, 'the pipe-pane reader')
        with open(go, 'w') as f:
            f.write('go')
        wait_for(lambda: os.path.exists(prefix + '.launch'), 10, 'the launcher')
        with open(prefix + '.launch') as f:
            launch = json.load(f)
        pid = launch['pid']
        samples = []
        if until_preview:
            deadline = launch['t'] + 10
            while time.monotonic() < deadline and alive(pid):
                with open(prefix + '.raw', 'rb') as f:
                    if HALF_BLOCK in f.read():
                        break
                time.sleep(0.02)
            time.sleep(0.2)
        else:
            end = launch['t'] + seconds
            next_sample = launch['t'] + sample_every
            while alive(pid):
                now = time.monotonic()
                if now >= end:
                    break
                time.sleep(max(0, min(next_sample, end) - now))
                if time.monotonic() >= next_sample and alive(pid):
                    try:
                        samples.append(proc_sample(pid))
                    except OSError:
                        break
                    next_sample += sample_every
            if alive(pid):
                samples.append(proc_sample(pid))
        ran_to_end = alive(pid)
        screen = tmux('capture-pane', '-p', '-t', '=' + name + ':', check=False)
    finally:
        tmux.kill(name)
    wait_for(lambda: os.path.exists(prefix + '.done'), 10, 'the pipe-pane reader to finish')
    wait_for(lambda: not alive(pid), 10, 'facecap to exit')
    chunks = []
    with open(prefix + '.idx', 'rb') as f:
        index = f.read()
    with open(prefix + '.raw', 'rb') as f:
        data = f.read()
    offset = 0
    for t, n in struct.iter_unpack('<dI', index):
        chunks.append((t, data[offset:offset + n]))
        offset += n
    if not opts.keep:
        os.unlink(prefix + '.raw')
    try:
        with open(prefix + '.frames.json') as f:
            pacing = json.load(f)
    except (OSError, ValueError):
        pacing = None
    return {'launch': launch, 'samples': samples, 'chunks': chunks, 'screen': screen, 'ran_to_end': ran_to_end,
            'size': f'{columns}x{rows}', 'photos': out_dir, 'pacing': pacing}


def pacing_note(run):
    """The run's FACECAP_FRAME_STATS (its last snapshot, ≤ 5 s before the end): frames analysed and read a second,
    and each analysed frame's arrival → guidance time (p50/p99); a binary without `frames_read` read them all."""
    pacing = run.get('pacing')
    if not pacing or not pacing.get('t'):
        return None, ''
    seconds = pacing['t']
    analysed = pacing.get('frames', 0)
    read = pacing.get('frames_read', analysed)
    figures = {'analysed_per_s': analysed / seconds, 'read_per_s': read / seconds,
               'p50_ms': pacing.get('p50_ms'), 'p99_ms': pacing.get('p99_ms'), 'max_ms': pacing.get('max_ms')}
    return figures, (f"analysed {figures['analysed_per_s']:.1f}/s of {figures['read_per_s']:.1f} read, arrival → "
                     f"guidance p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f'timed out waiting for {what}')
        time.sleep(0.01)


# MARK: - Analysis

def first_preview(run):
    """Seconds from launch to the first chunk holding a preview cell (None: never)."""
    tail = b''
    for t, chunk in run['chunks']:
        if HALF_BLOCK in tail + chunk:
            return t - run['launch']['t']
        tail = chunk[-2:]
    return None


def frame_bytes(run, opts):
    """Bursts of output in the steady state; the median per-second bytes per burst."""
    start = first_preview(run)
    if start is None:
        return None
    begin = run['launch']['t'] + start + opts.warmup
    chunks = [(t, len(c)) for t, c in run['chunks'] if t >= begin]
    if not chunks:
        return None
    gap = opts.gap_ms / 1000
    bursts = []    # (start time, bytes)
    last = None
    for t, n in chunks:
        if last is None or t - last > gap:
            bursts.append([t, 0])
        bursts[-1][1] += n
        last = t
    end = chunks[-1][0]
    seconds = int(end - begin)
    per_second = []
    for s in range(seconds):
        lo, hi = begin + s, begin + s + 1
        count = sum(1 for b in bursts if lo <= b[0] < hi)
        total = sum(n for t, n in chunks if lo <= t < hi)
        if count:
            per_second.append((total / count, count))
    if not per_second:
        return None
    return {'median_bytes_per_frame': statistics.median(r for r, _ in per_second),
            'median_burst_bytes': statistics.median(n for _, n in bursts),
            'p90_burst_bytes': sorted(n for _, n in bursts)[int(0.9 * (len(bursts) - 1))],
            'frames_per_second': statistics.median(c for _, c in per_second),
            'pane_vs_written': pane_vs_written(run),
            'bytes_per_second': sum(n for _, n in chunks) / max(1e-9, end - begin),
            'seconds': seconds, 'bursts': len(bursts)}


def still_bytes(run, after=1.0):
    """Bytes per camera frame (30 a second) in each whole second from `after` s past the first preview;
    the median, the largest and the first second's."""
    start = first_preview(run)
    if start is None:
        return None
    begin = run['launch']['t'] + start
    end = run['chunks'][-1][0] if run['chunks'] else begin
    last = run['samples'][-1]['t'] if run['samples'] else end
    seconds = int(last - begin - after)
    per_second = []
    for s in range(seconds):
        lo = begin + after + s
        per_second.append(sum(len(c) for t, c in run['chunks'] if lo <= t < lo + 1) / FPS)
    if not per_second:
        return None
    first = sum(len(c) for t, c in run['chunks'] if begin <= t < begin + 1) / FPS
    return {'median_bytes_per_camera_frame': statistics.median(per_second), 'max': max(per_second),
            'first_second_bytes_per_camera_frame': first, 'seconds': seconds}


def pane_vs_written(run):
    """Bytes that reached the pane over the bytes facecap wrote (/proc/PID/io wchar), up to the last sample:
    about 1 when pipe-pane sees every byte (facecap writes nothing else in these runs)."""
    if not run['samples'] or not run['samples'][-1]['wchar']:
        return None
    last = run['samples'][-1]
    pane = sum(len(c) for t, c in run['chunks'] if t <= last['t'])
    return pane / last['wchar']


def cpu_figures(run, warmup=5):
    samples, launch = run['samples'], run['launch']
    last = samples[-1]
    whole = (last['cpu_s'] - launch['cpu']) / (last['t'] - launch['t']) * 100
    steady = [s for s in samples if s['t'] - launch['t'] >= warmup]
    steady_pct = ((steady[-1]['cpu_s'] - steady[0]['cpu_s']) / (steady[-1]['t'] - steady[0]['t']) * 100
                  if len(steady) > 1 else None)
    return whole, steady_pct


def rss_at(run, seconds):
    """RSS (MB) in the sample nearest `seconds` after launch."""
    launch = run['launch']['t']
    best = min(run['samples'], key=lambda s: abs(s['t'] - launch - seconds))
    return best['rss_kb'] / 1024, best['t'] - launch


def peak_mb(run):
    return max(s['hwm_kb'] for s in run['samples']) / 1024 if run['samples'] else None


def guidance_line(screen):
    """The screen's text without the picture, to show what the wizard was saying."""
    words = [line.strip() for line in screen.splitlines() if line.strip() and '▀' not in line]
    return ' | '.join(words)[:160]


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--binary', default=os.path.join(ROOT, '.build/release/facecap'))
    parser.add_argument('--seconds', type=float, default=60, help='the CPU/memory run at 100×32 (default 60)')
    parser.add_argument('--bytes-seconds', type=float, default=20, help='each terminal-bytes run (default 20)')
    parser.add_argument('--launches', type=int, default=10, help='start-up launches (default 10)')
    parser.add_argument('--soak', action='store_true', help='also the ≥ 340 s run for RSS from frame 1 000 to 10 000')
    parser.add_argument('--soak-seconds', type=float, default=345)
    parser.add_argument('--clip', choices=('colour', 'mono'), default='colour')
    parser.add_argument('--noise', type=float, default=0,
                        help='Gaussian noise on the colour clip\'s luma, σ in levels (a webcam: 2–4; default 0)')
    parser.add_argument('--term', default='tmux-256color')
    parser.add_argument('--light', type=float, default=1,
                        help='the clip\'s luma scaled by this (0.35: a face too dark, with its cover and hand reading'
                             ' cadence; the still and capture clips stay lit; default 1)')
    parser.add_argument('--still-noise', type=float, default=2,
                        help='noise σ of the still scene (default 2 levels, a webcam in good light)')
    parser.add_argument('--warmup', type=float, default=3, help='seconds after the first preview not counted')
    parser.add_argument('--gap-ms', type=float, default=8, help='silence that separates two drawn frames')
    parser.add_argument('--only', default='start,bytes,still,cpu,capture',
                        help='comma-separated: start, bytes, still, cpu, capture (and compare, with --compare)')
    parser.add_argument('--compare', metavar='OTHER',
                        help='also CPU runs of OTHER (another facecap) and --binary in turn, --rounds each, on the '
                             'same clip and pane size: medians, spreads and the ratio of each pair')
    parser.add_argument('--rounds', type=int, default=3, help='rounds of --compare (default 3)')
    parser.add_argument('--json', help='also write every figure to this file')
    parser.add_argument('--keep', action='store_true', help='keep the work directory (pane logs)')
    parser.add_argument('--pipe-reader', help=argparse.SUPPRESS)
    parser.add_argument('--launcher', help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.pipe_reader:
        return pipe_reader(opts.pipe_reader)
    if opts.launcher:
        return launcher(opts.launcher)

    if not os.access(opts.binary, os.X_OK):
        sys.exit(f'wizard_budget: no facecap at {opts.binary} (run `make build`)')
    if shutil.which('tmux') is None:
        sys.exit('wizard_budget: tmux is not installed')
    if opts.clip == 'colour':
        try:
            import PIL  # noqa: F401
        except ImportError:
            print('wizard_budget: Pillow is not installed; using the mono clip', file=sys.stderr)
            opts.clip = 'mono'
    if opts.clip == 'mono':
        opts.noise = 0
    clip_kind = opts.clip + (f', noise σ {opts.noise:g}' if opts.noise else '') + \
        (f', luma × {opts.light:g}' if opts.light != 1 else '')
    still_clip = clip_path(opts.clip, opts.still_noise if opts.clip == 'colour' else 0, still='aside')
    capture_clip = clip_path(opts.clip, still=True)
    opts.clip = clip_path(opts.clip, opts.noise, light=opts.light)
    phases = set(opts.only.split(','))
    workdir = tempfile.mkdtemp(prefix='facecap-budget-')
    tmux = Tmux(workdir)
    results, rows, failures, problems = {'clip': clip_kind, 'term': opts.term}, [], [], []

    def check(label, value, budget, unit, fmt='{:.1f}', extra=''):
        ok = value is not None and value <= budget
        rows.append((label, '–' if value is None else fmt.format(value) + unit, fmt.format(budget) + unit,
                     'ok' if ok else 'OVER', extra))
        if not ok:
            failures.append(label)

    def info(label, value, extra=''):
        rows.append((label, value, '', '', extra))

    def load_note(what):
        load = loadavg()
        print(f'{what}: load {load}', flush=True)
        results.setdefault('load', {})[what] = load

    def sane(run, what):
        if not run['ran_to_end']:
            problems.append(f'{what}: facecap exited early; screen: {guidance_line(run["screen"])}')
        elif '▀' not in run['screen']:
            problems.append(f'{what}: the screen left the live preview: {guidance_line(run["screen"])}')

    peaks = []
    try:
        print(f'facecap wizard budgets: {opts.binary}, clip {clip_kind} ({os.path.relpath(opts.clip, ROOT)}), '
              f'TERM={opts.term}, {os.cpu_count()} CPUs', flush=True)
        if 'start' in phases:
            load_note(f'start-up, {opts.launches} launches at 100x32')
            starts = []
            for i in range(opts.launches):
                run = run_pane(opts, tmux, workdir, f'start{i}', 100, 32, until_preview=True)
                first = first_preview(run)
                if first is None:
                    problems.append(f'launch {i}: no preview within 10 s; screen: {guidance_line(run["screen"])}')
                else:
                    starts.append(first * 1000)
            results['start_ms'] = starts
            if starts:
                check('start to first preview (median)', statistics.median(starts), BUDGETS['start_ms'], ' ms',
                      '{:.0f}', f'min {min(starts):.0f}, max {max(starts):.0f}, n={len(starts)}')
        if 'bytes' in phases:
            for columns, rows_ in ((80, 24), (200, 60)):
                size = f'{columns}x{rows_}'
                load_note(f'terminal bytes at {size}, {opts.bytes_seconds:.0f} s')
                run = run_pane(opts, tmux, workdir, f'bytes{size}', columns, rows_, seconds=opts.bytes_seconds)
                sane(run, size)
                figures = frame_bytes(run, opts)
                results[f'bytes_{size}'] = figures
                peaks.append((size, peak_mb(run)))
                extra = '' if figures is None else (
                    f'{figures["frames_per_second"]:.0f} frames/s, median burst {figures["median_burst_bytes"]:.0f} B,'
                    f' p90 {figures["p90_burst_bytes"]:.0f} B, {figures["bytes_per_second"] / 1024:.0f} KB/s,'
                    f' pane/written {figures["pane_vs_written"] or 0:.3f}')
                value = None if figures is None else figures['median_bytes_per_frame']
                if size == '80x24':
                    check(f'bytes per preview frame {size}', value, BUDGETS['bytes_per_frame_80x24'], ' B', '{:.0f}',
                          extra)
                else:
                    info(f'bytes per preview frame {size}', '–' if value is None else f'{value:.0f} B', extra)
        if 'still' in phases:
            load_note(f'still scene at 80x24, {opts.bytes_seconds:.0f} s')
            run = run_pane(opts, tmux, workdir, 'still80x24', 80, 24, seconds=opts.bytes_seconds, clip=still_clip)
            sane(run, 'still scene')
            figures = still_bytes(run)
            results['still_80x24'] = figures
            peaks.append(('still', peak_mb(run)))
            check('still scene, bytes per camera frame 80x24', None if figures is None
                  else figures['median_bytes_per_camera_frame'], BUDGETS['still_bytes_per_camera_frame_80x24'],
                  ' B', '{:.0f}', '' if figures is None else
                  f'max {figures["max"]:.0f} B, first second {figures["first_second_bytes_per_camera_frame"]:.0f} B,'
                  f' noise σ {opts.still_noise:g}')
        if 'cpu' in phases:
            load_note(f'CPU and memory at 100x32, {opts.seconds:.0f} s')
            run = run_pane(opts, tmux, workdir, 'cpu', 100, 32, seconds=opts.seconds)
            sane(run, 'cpu run')
            if len(run['samples']) < 2:
                raise RuntimeError('cpu run: facecap ended before it could be sampled')
            whole, steady = cpu_figures(run)
            results['cpu'] = {'whole_percent': whole, 'steady_percent': steady}
            check('CPU, % of one core (launch to end)', whole, BUDGETS['cpu_percent'], ' %', '{:.1f}',
                  (f'steady state (after 5 s) {steady:.1f} %' if steady is not None else '')
                  + f'; issue 18 aims at {CPU_AIM_PERCENT:g} %: ' + ('met' if whole <= CPU_AIM_PERCENT else 'not met'))
            figures = frame_bytes(run, opts)
            results['bytes_100x32'] = figures
            if figures:
                info('bytes per preview frame 100x32', f'{figures["median_bytes_per_frame"]:.0f} B',
                     f'{figures["frames_per_second"]:.0f} frames/s, median burst {figures["median_burst_bytes"]:.0f} B')
            peaks.append(('100x32', peak_mb(run)))
            if opts.seconds >= 34:
                at1000, t1 = rss_at(run, 1000 / FPS)
                end_mb, t2 = rss_at(run, opts.seconds)
                results['rss_cpu_run'] = {'frame_1000_mb': at1000, 'end_mb': end_mb, 'end_s': t2}
                info('RSS at ~frame 1 000 / end', f'{at1000:.1f} / {end_mb:.1f} MB', f'at {t1:.0f} s and {t2:.0f} s')
        if opts.compare:
            # Alternating rounds (A B, B A, A B, …) so a change of the machine's load lands on both binaries alike;
            # each pair's ratio is taken within the round, and the median of those is the figure to quote.
            binaries = {'other': os.path.abspath(opts.compare), 'this': os.path.abspath(opts.binary)}
            figures = {'other': [], 'this': []}
            ratios = []
            mine = opts.binary
            for r in range(opts.rounds):
                order = ('other', 'this') if r % 2 == 0 else ('this', 'other')
                pair = {}
                for which in order:
                    opts.binary = binaries[which]
                    load_note(f'compare round {r + 1}/{opts.rounds}: {which} ({opts.binary}), {opts.seconds:.0f} s')
                    run = run_pane(opts, tmux, workdir, f'cmp{r}{which}', 100, 32, seconds=opts.seconds)
                    sane(run, f'compare {which} round {r + 1}')
                    if len(run['samples']) < 2:
                        raise RuntimeError(f'compare {which}: facecap ended before it could be sampled')
                    whole, steady = cpu_figures(run)
                    pair[which] = steady if steady is not None else whole
                    pacing, note = pacing_note(run)
                    figures[which].append({'whole_percent': whole, 'steady_percent': steady,
                                           'load': loadavg(), 'pacing': pacing})
                    print(f'  {which}: {whole:.1f} % of a core (steady {steady or whole:.1f} %)'
                          + (f'; {note}' if note else ''), flush=True)
                ratios.append(pair['this'] / pair['other'])
            opts.binary = mine
            results['compare'] = {'binaries': binaries, 'runs': figures, 'ratios_this_over_other': ratios}
            for which in ('other', 'this'):
                steady = [f['steady_percent'] or f['whole_percent'] for f in figures[which]]
                info(f'compare: {which}, steady CPU (median)', f'{statistics.median(steady):.1f} %',
                     f'{min(steady):.1f}–{max(steady):.1f} %, n={len(steady)}; {binaries[which]}')
            info('compare: this / other (median of the rounds)', f'{statistics.median(ratios):.3f}',
                 ', '.join(f'{x:.3f}' for x in ratios))
        if 'capture' in phases:
            # The whole capture: the face held in the oval, auto capture, the built-in validator on the photo (the
            # face models run a second time, on the worker thread), the JPEG and report saved, the Success screen,
            # exit. facecap ends by itself, so VmHWM is read every 20 ms: the last reading is its peak to within
            # the closing of the screen.
            load_note('capture session at 100x32 (still face: auto capture, built-in validator, save)')
            run = run_pane(opts, tmux, workdir, 'capture', 100, 32, seconds=30, clip=capture_clip, sample_every=0.02)
            saved = sorted(os.listdir(run['photos'])) if os.path.isdir(run['photos']) else []
            if run['ran_to_end'] or not any(name.endswith('.jpg') for name in saved):
                problems.append(f'capture: no photo saved and exit within 30 s; screen: {guidance_line(run["screen"])}')
            peaks.append(('capture', peak_mb(run)))
            if run['samples']:
                ended = run['samples'][-1]['t'] - run['launch']['t']
                info('capture session', f'{peak_mb(run):.1f} MB peak', f'photo saved, exit after {ended:.1f} s; '
                     f'RSS at the end {run["samples"][-1]["rss_kb"] / 1024:.1f} MB')
        if opts.soak:
            load_note(f'soak at 100x32, {opts.soak_seconds:.0f} s')
            run = run_pane(opts, tmux, workdir, 'soak', 100, 32, seconds=opts.soak_seconds)
            sane(run, 'soak')
            peaks.append(('soak', peak_mb(run)))
            if not run['samples']:
                raise RuntimeError('soak: facecap ended before it could be sampled')
            if opts.soak_seconds >= 10000 / FPS + 5:
                at1000, _ = rss_at(run, 1000 / FPS)
                at10000, _ = rss_at(run, 10000 / FPS)
                drift = at10000 - at1000
                series = [round(s['rss_kb'] / 1024, 1) for s in run['samples']]
                results['soak'] = {'frame_1000_mb': at1000, 'frame_10000_mb': at10000, 'rss_mb_each_second': series}
                check('RSS drift frame 1 000 → 10 000', abs(drift), BUDGETS['rss_drift_mb'], ' MB', '{:.1f}',
                      f'{at1000:.1f} → {at10000:.1f} MB (signed {drift:+.1f}); range over the run '
                      f'{min(series[30:] or series):.1f}–{max(series[30:] or series):.1f} MB')
            else:
                problems.append('soak: --soak-seconds must reach frame 10 000 (≥ 339 s)')
        measured = [(what, mb) for what, mb in peaks if mb is not None]
        if measured:
            what, mb = max(measured, key=lambda p: p[1])
            results['peak_rss_mb'] = dict(measured)
            check('peak RSS (VmHWM)', mb, BUDGETS['peak_rss_mb'], ' MB', '{:.1f}',
                  'runs: ' + ', '.join(f'{w} {m:.1f}' for w, m in measured))
        load_note('end')
    except RuntimeError as error:
        problems.append(str(error))
    finally:
        tmux.kill_all()
        if not opts.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f'pane logs kept in {workdir}')

    print()
    widths = [max(len(str(r[i])) for r in rows + [('measure', 'value', 'budget', '', '')]) for i in range(4)]
    print('  '.join(h.ljust(w) for h, w in zip(('measure', 'value', 'budget', ''), widths)))
    for row in rows:
        print('  '.join(str(c).ljust(w) for c, w in zip(row[:4], widths)) + ('  ' + row[4] if row[4] else ''))
    for problem in problems:
        print(f'problem: {problem}')
    results['budgets'] = BUDGETS
    results['over_budget'] = failures
    results['problems'] = problems
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump(results, f, indent=1)
    if problems:
        return 2
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
