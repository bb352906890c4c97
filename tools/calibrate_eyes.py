#!/usr/bin/env python3
"""Tabulates what facecap itself measures on the eye and occlusion calibration frames.

Runs `facecap analyze --json` (the Swift code: the same models, measures and rules as the wizard) on every
image in a folder made by tools/make_eye_frames.py and prints, per photo and variant: face presence, yaw and
pitch, eyelid opening per eye, raw and pose-corrected gaze, the cover scores and the guidance codes. The
numbers docs/calibration.md records come from this.

With --frames DIR it first builds webcam-like 640x480 frames from every image in FOLDER (the face scaled
to 0.30, 0.38 and 0.48 of the frame width on mid-grey, at gain 0.6, 1.0 and 1.4; the face box is the one
facecap itself reports) into DIR and tabulates those instead (needs Pillow).

Usage: tools/calibrate_eyes.py [--binary .build/release/facecap] [--thresholds FILE] [--frames DIR] FOLDER
"""
import argparse
import glob
import json
import os
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', default='.build/release/facecap')
    ap.add_argument('--thresholds')
    ap.add_argument('--frames')
    ap.add_argument('folder')
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.folder, '*.png')) + glob.glob(os.path.join(args.folder, '*.jpg')))
    command = [args.binary, 'analyze', '--json'] + (['--thresholds', args.thresholds] if args.thresholds else [])
    if args.frames:
        files = make_frames(command, files, args.frames)
    result = subprocess.run(command + files, capture_output=True, text=True)
    print(f'{"frame":28s} {"pres":>5s} {"yaw":>5s} {"pitch":>5s} {"open r/l":>11s} {"gaze x/y":>13s} '
          f'{"camera x/y":>13s} {"cover: [regions] pres chroma mouth mouthCh bright r/l dark r/l":>50s}  guidance')
    for line in result.stdout.splitlines():
        d = json.loads(line)
        name = os.path.splitext(os.path.basename(d['file']))[0]
        m = d['metrics']
        face = d['faces'][0] if d['faces'] else {}
        eyes = m.get('eyes') or {}
        cover = m.get('cover') or {}
        def pair(key, fmt='{:+.3f}'):
            v = eyes.get(key)
            return '/'.join(fmt.format(x) for x in v) if v else '-'
        cov = ' '.join('-' if v is None else f'{v:.3g}' if isinstance(v, (int, float)) else '/'.join(f'{x:.2f}' for x in v)
                       for k, v in cover.items() if k != 'regions')
        if cover.get('regions'):
            cov = '[' + ','.join(cover['regions']) + '] ' + cov
        print(f'{name:28s} {face.get("presence", 0) or 0:5.1f} {m["yaw"] if m["yaw"] is not None else "-":>5} '
              f'{m["pitch"] if m["pitch"] is not None else "-":>5} {pair("opening", "{:.3f}"):>11s} '
              f'{pair("gaze"):>13s} {pair("cameraGaze"):>13s} {cov:>50s}  {",".join(d["guidance"])}'
              + (f'  [{len(d["faces"])} faces]' if len(d['faces']) > 1 else ''))


def make_frames(command, files, out):
    from PIL import Image
    os.makedirs(out, exist_ok=True)
    result = subprocess.run(command + files, capture_output=True, text=True)
    made = []
    for line in result.stdout.splitlines():
        d = json.loads(line)
        if not d['faces']:
            continue
        x0, y0, w, h = d['faces'][0]['box']
        photo = Image.open(d['file']).convert('RGB')
        name = os.path.splitext(os.path.basename(d['file']))[0]
        for width in (0.30, 0.38, 0.48):
            scale = width * 640 / w
            big = photo.resize((round(photo.width * scale), round(photo.height * scale)), Image.LANCZOS)
            cx, cy = (x0 + w / 2) * scale, (y0 + h / 2) * scale
            for gain in (0.6, 1.0, 1.4):
                frame = Image.new('RGB', (640, 480), (128, 128, 128))
                frame.paste(big, (round(320 - cx), round(240 - cy)))
                if gain != 1.0:
                    frame = frame.point(lambda v: min(255, round(v * gain)))
                path = os.path.join(out, f'{name}_w{int(width * 100)}_g{int(gain * 10)}.png')
                frame.save(path)
                made.append(path)
    return made


if __name__ == '__main__':
    main()
