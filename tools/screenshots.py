#!/usr/bin/env python3
"""Pictures of every screen facecap shows in a real run (`make screenshots`).

usage: screenshots.py [--binary .build/release/facecap] [--out .build/screenshots]
                      [--sizes 80x24,100x32,200x60] [--modes truecolor,256,16] [--readme DIR]

For each size and colour mode, facecap runs in a detached tmux pane on a private tmux server (no user
config), replaying a clip of the fixture photo Tests/Fixtures/sergey.png (tools/preview_clips.py's
good.y4m, the face held in the oval) against Tests/Support/validation_server.py on loopback, scripted to
ask for another photo once and then accept. Every 100 ms the pane is captured (`tmux capture-pane -e -p -N`);
each screen whose title line differs from the one before, once it has stayed the same for two captures, is
kept as NN-title.ansi and drawn to NN-title.png by tools/ansi2png.py. On the retry screen Enter is pressed
(take another photo), on the success screen too (finish). Modes: truecolor is TERM=tmux-direct, 256 is
screen-256color and 16 is screen-16color, none with COLORTERM.

facecap runs with its default settings (the manual-capture countdown as a person sees it); only the
clip, the server and the output folder are given.

--readme DIR also writes the capture, retry and success screens of the 80x24 256-colour run to
DIR/screen-{capture,retry,success}.png (the pictures the README shows), with the words each shows in
DIR/screen-*.txt (DocumentationTests reads them), and the capture and success screens of the 200x60
256-colour run (the guidance in a column beside the preview, the larger thumbnail) to
DIR/screen-{capture,success}-200x60.png.

The pictures hold the fixture photo's face (MediaPipe test data, Apache-2.0; docs/images/SOURCES.md), not
anyone's own; the output folder is private (0700) all the same, as facecap keeps its photos.
Needs tmux, Pillow and NumPy.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TERMS = {'truecolor': 'tmux-direct', '256': 'screen-256color', '16': 'screen-16color'}
SCRIPT = [{'status': 200, 'json': {'result': 'retry', 'reasons': ['tooDark']}},
          {'status': 200, 'json': {'result': 'pass', 'reasons': [], 'message': 'Selfie accepted'}}]


def tmux(socket, *args, check=True):
    return subprocess.run(['tmux', '-L', socket, '-f', '/dev/null', *args], capture_output=True, text=True,
                          check=check).stdout


def start_server(work):
    script = os.path.join(work, 'script.json')
    with open(script, 'w') as f:
        json.dump(SCRIPT, f)
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, 'Tests/Support/validation_server.py'),
                               '--script', script, '--record', os.path.join(work, 'record.jsonl'), '--port', '0'],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    m = re.match(r'PORT (\d+)', line)
    if not m:
        server.kill()
        sys.exit(f'screenshots: the validation server did not start ({line!r})')
    return server, int(m.group(1))


def slug(title):
    s = re.sub(r'[^a-z0-9]+', '-', title.lower()).strip('-')
    return s[:40] or 'blank'


def run(opts, clip, size, mode, out, port, socket):
    columns, rows = map(int, size.split('x'))
    os.makedirs(out, mode=0o700, exist_ok=True)
    photos = tempfile.mkdtemp(prefix='facecap-shots-')
    env = {'TERM': TERMS[mode], 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'PATH': os.environ.get('PATH', ''),
           'HOME': photos, 'FACECAP_MODEL_DIR': os.environ.get('FACECAP_MODEL_DIR', os.path.join(ROOT, 'models'))}
    command = ['env', '-i'] + [f'{k}={v}' for k, v in env.items()] + [
        os.path.abspath(opts.binary), '--no-tutorial', '--input', clip, '--loop',
        '--server', f'http://127.0.0.1:{port}/check', '--output', 'selfies']
    name = f'shot-{size}-{mode}'
    # A relative --output in a folder of its own: the pictures show no path of this machine.
    tmux(socket, 'new-session', '-d', '-s', name, '-x', str(columns), '-y', str(rows), '-c', photos,
         ' '.join(subprocess.list2cmdline([c]) for c in command) + '; sleep 30')
    tmux(socket, 'set-option', '-t', name, 'status', 'off')
    shots, last, pending, since = [], None, None, 0
    deadline = time.monotonic() + opts.timeout
    try:
        while time.monotonic() < deadline:
            time.sleep(0.1)
            text = tmux(socket, 'capture-pane', '-p', '-t', name, check=False)
            lines = [l.strip() for l in text.split('\n') if l.strip()]
            if not lines:
                continue
            title = lines[0]
            if title != pending:
                pending, since = title, 1
                continue
            since += 1
            if title == last or since < 2:
                continue
            last = title
            # -N: the trailing cells too; without it tmux drops spaces on a colour at a row's end (the preview's
            # right-hand cells), and the picture shows bars and holes that are not on the screen.
            ansi = tmux(socket, 'capture-pane', '-e', '-p', '-N', '-t', name, check=False)
            base = os.path.join(out, f'{len(shots):02d}-{slug(title)}')
            with open(base + '.ansi', 'w') as f:
                f.write(ansi)
            subprocess.run([sys.executable, os.path.join(HERE, 'ansi2png.py'), base + '.ansi', base + '.png',
                            '--cols', str(columns), '--rows', str(rows)], check=True)
            shots.append((title, base + '.png', text))
            print(f'  {size} {mode}: {os.path.relpath(base, ROOT)}.png  {title}', flush=True)
            if 'try again' in text or 'Selfie accepted' in text or 'continue' in text:
                time.sleep(1.0)
                tmux(socket, 'send-keys', '-t', name, 'Enter', check=False)
            if 'Selfie accepted' in text:
                break
    finally:
        tmux(socket, 'kill-session', '-t', name, check=False)
        shutil.rmtree(photos, ignore_errors=True)
    return shots


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--binary', default=os.path.join(ROOT, '.build/release/facecap'))
    ap.add_argument('--out', default=os.path.join(ROOT, '.build/screenshots'))
    ap.add_argument('--sizes', default='80x24,100x32,200x60')
    ap.add_argument('--modes', default='truecolor,256,16')
    ap.add_argument('--readme', help='also write the README pictures (80x24, 256 colours) into this folder')
    ap.add_argument('--timeout', type=float, default=60, help='seconds a run may take')
    opts = ap.parse_args()
    if not os.access(opts.binary, os.X_OK):
        sys.exit(f'screenshots: no facecap at {opts.binary} (run `make build`)')
    os.umask(0o077)
    os.makedirs(opts.out, mode=0o700, exist_ok=True)
    os.chmod(opts.out, 0o700)
    work = tempfile.mkdtemp(prefix='facecap-shots-')
    socket = f'facecap-shots-{os.getpid()}'
    try:
        subprocess.run([sys.executable, os.path.join(HERE, 'preview_clips.py'), work], check=True)
        clip = os.path.join(work, 'good.y4m')
        failed = []
        for size in opts.sizes.split(','):
            for mode in opts.modes.split(','):
                server, port = start_server(work)
                try:
                    shots = run(opts, clip, size, mode, os.path.join(opts.out, f'{size}-{mode}'), port, socket)
                finally:
                    server.kill()
                    server.wait()
                texts = ' '.join(t for _, _, t in shots)
                if "Let's take another photo" not in texts or 'Selfie accepted' not in texts:
                    failed.append(f'{size} {mode}')
                if opts.readme and size in ('80x24', '200x60') and mode == '256':
                    os.makedirs(opts.readme, exist_ok=True)
                    picks = {'capture': next((p for _, p, t in shots if '▀' in t), None),
                             'retry': next((p for _, p, t in shots if "Let's take another photo" in t), None),
                             'success': next((p for _, p, t in shots if 'Selfie accepted' in t), None)}
                    if size == '200x60':
                        picks = {f'{what}-200x60': picks[what] for what in ('capture', 'success')}
                    for what, path in picks.items():
                        if path:
                            shutil.copyfile(path, os.path.join(opts.readme, f'screen-{what}.png'))
                            if size != '80x24':
                                continue
                            # The picture's words, for DocumentationTests (what a person reads in it).
                            text = next(t for _, p, t in shots if p == path)
                            with open(os.path.join(opts.readme, f'screen-{what}.txt'), 'w') as f:
                                f.write('\n'.join(l.rstrip() for l in text.rstrip().split('\n')) + '\n')
    finally:
        subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f'screens in {os.path.relpath(opts.out, ROOT)}/')
    if failed:
        sys.exit('screenshots: the retry or success screen was not reached in: ' + ', '.join(failed))


if __name__ == '__main__':
    main()
