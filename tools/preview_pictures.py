#!/usr/bin/env python3
"""Pictures of the live preview in every colour mode, light and dark skin, from a real terminal run.

For each clip (tools/preview_clips.py's good.y4m, sergey.png, and dark.y4m, the same face made dark-skinned)
and each mode, facecap runs at 80x24 in a detached tmux pane on a private tmux server; 0.8 s after the
capture screen shows (before a well-placed face is taken), the pane is captured (`tmux capture-pane -e -p -N`), drawn by
tools/ansi2png.py and measured by tools/preview_fidelity.py against the clip's first frame. The two faces
are then set side by side, light skin left: OUTDIR/preview-MODE.jpg (the README's docs/images/preview-*.jpg).

Modes: truecolor (TERM=tmux-direct), 256 (screen-256color), 16 (screen-16color), 8 (screen), nocolor
(NO_COLOR=1, 256 colours), langc (LANG=C, 256 colours), 256-light (256 colours, drawn on a white background).

usage: preview_pictures.py FACECAP OUTDIR [--work DIR] [--modes 256,16] [--rect 16,1,48,18]
Needs tmux, Pillow and NumPy. The captures hold the fixture's face: they are written 0600 in 0700 folders."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODES = {
    'truecolor': ({'TERM': 'tmux-direct'}, False),
    '256': ({'TERM': 'screen-256color'}, False),
    '16': ({'TERM': 'screen-16color'}, False),
    '8': ({'TERM': 'screen'}, False),
    'nocolor': ({'TERM': 'screen-256color', 'NO_COLOR': '1'}, False),
    'langc': ({'TERM': 'screen-256color', 'LANG': 'C', 'LC_ALL': 'C'}, False),
    '256-light': ({'TERM': 'screen-256color'}, True),
}
os.umask(0o077)


def tmux(socket, *args, check=True):
    return subprocess.run(['tmux', '-L', socket, '-f', '/dev/null', *args], capture_output=True, text=True,
                          check=check).stdout


def capture(binary, clip, mode, base, socket):
    extra, _ = MODES[mode]
    home = tempfile.mkdtemp(prefix='facecap-preview-')
    env = {'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'PATH': os.environ.get('PATH', ''), 'HOME': home,
           'FACECAP_MODEL_DIR': os.environ.get('FACECAP_MODEL_DIR', os.path.join(ROOT, 'models'))}
    env.update(extra)
    command = ['env', '-i'] + [f'{k}={v}' for k, v in env.items()] + [
        os.path.abspath(binary), '--no-tutorial', '--no-mirror', '--input', clip, '--loop', '--manual-after', '3600',
        '--output', 'selfies']
    name = 'preview-' + mode
    tmux(socket, 'new-session', '-d', '-s', name, '-x', '80', '-y', '24', '-c', home,
         ' '.join(subprocess.list2cmdline([c]) for c in command) + '; sleep 30')
    tmux(socket, 'set-option', '-t', name, 'status', 'off')
    try:
        # From the first picture of the capture screen on (a loaded machine starts facecap slowly), 0.8 s: a
        # still face in the oval is taken about 1.5 s in.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and 'Taking your selfie' not in tmux(socket, 'capture-pane', '-p', '-t',
                                                                               name, check=False):
            time.sleep(0.1)
        time.sleep(0.8)
        ansi = tmux(socket, 'capture-pane', '-e', '-p', '-N', '-t', name, check=False)
    finally:
        tmux(socket, 'kill-session', '-t', name, check=False)
    with open(base + '.ansi', 'w') as f:
        f.write(ansi)
    return ansi


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('binary')
    ap.add_argument('outdir')
    ap.add_argument('--work', help='where the clips and captures go (default: a private temporary folder)')
    ap.add_argument('--modes', default=','.join(MODES))
    ap.add_argument('--rect', help="the preview's x,y,w,h in the capture, for the measure (default: found from its cells)")
    opts = ap.parse_args()
    work = opts.work or tempfile.mkdtemp(prefix='facecap-pictures-')
    os.makedirs(work, mode=0o700, exist_ok=True)
    os.makedirs(opts.outdir, exist_ok=True)
    if not os.path.exists(os.path.join(work, 'dark.y4m')):
        subprocess.run([sys.executable, os.path.join(HERE, 'preview_clips.py'), work], check=True)
    socket = f'facecap-pictures-{os.getpid()}'
    try:
        for mode in opts.modes.split(','):
            light = MODES[mode][1]
            halves = []
            for clip in ('good', 'dark'):
                base = os.path.join(work, f'{mode}-{clip}')
                capture(opts.binary, os.path.join(work, clip + '.y4m'), mode, base, socket)
                subprocess.run([sys.executable, os.path.join(HERE, 'ansi2png.py'), base + '.ansi', base + '.png',
                                '--cols', '80', '--rows', '24'] + (['--light'] if light else []), check=True)
                figures = subprocess.run([sys.executable, os.path.join(HERE, 'preview_fidelity.py'), base + '.ansi',
                                          os.path.join(work, clip + '.png')] + (['--light'] if light else [])
                                         + (['--rect', opts.rect] if opts.rect else []),
                                         capture_output=True, text=True)
                print(f'{mode:10} {clip:5} {(figures.stdout or figures.stderr).strip()}')
                halves.append(Image.open(base + '.png').convert('RGB'))
            w, h = halves[0].size
            pair = Image.new('RGB', (w + 8 + halves[1].size[0], h), (128, 128, 128))
            pair.paste(halves[0], (0, 0))
            pair.paste(halves[1], (w + 8, 0))
            pair = pair.resize((pair.size[0] // 2, pair.size[1] // 2), Image.LANCZOS)
            pair.save(os.path.join(opts.outdir, f'preview-{mode}.jpg'), quality=88)
    finally:
        tmux(socket, 'kill-server', check=False)


if __name__ == '__main__':
    main()
