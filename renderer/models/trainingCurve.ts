// The training job's loss over epochs, gathered from its progress messages ("training epoch 3/8 ·
// loss 1.482") as the job poller receives them, so the Models view can draw the curve and survives
// navigating away and back while the job runs.

import { create } from 'zustand';
import { useJobs } from '../common/jobs';

export interface LossPoint {
  /** Epochs completed, fractional (step / steps per epoch). */
  epoch: number;
  loss: number;
}

interface CurveState {
  jobId: string | null;
  points: LossPoint[];
  epoch: number | null;
  epochs: number | null;
}

export const useTrainingCurve = create<CurveState>(() => ({ jobId: null, points: [], epoch: null, epochs: null }));

const EPOCH = /epoch (\d+)\/(\d+)(?:\s*·\s*loss ([-+0-9.eE]+))?/;

/** Reads "training epoch e/E · loss x" from a job message (null when it is another phase's). */
export function parseEpoch(message: string): { epoch: number; epochs: number; loss: number | null } | null {
  const m = EPOCH.exec(message);
  if (!m) return null;
  const loss = m[3] !== undefined ? Number(m[3]) : null;
  return { epoch: Number(m[1]), epochs: Number(m[2]), loss: loss !== null && Number.isFinite(loss) ? loss : null };
}

useJobs.subscribe((next, prev) => {
  const status = next.jobs.train?.status;
  if (!status || status === prev.jobs.train?.status) return;
  const curve = useTrainingCurve.getState();
  const base = curve.jobId === status.id ? curve : { jobId: status.id, points: [], epoch: null, epochs: null };
  const parsed = parseEpoch(status.message);
  if (!parsed) {
    if (base !== curve) useTrainingCurve.setState(base);
    return;
  }
  const perEpoch = status.total > 0 ? status.total / parsed.epochs : 0;
  const x = perEpoch > 0 ? status.done / perEpoch : parsed.epoch;
  const points = parsed.loss === null || base.points.some((p) => p.epoch === x) ? base.points : [...base.points, { epoch: x, loss: parsed.loss }];
  useTrainingCurve.setState({ jobId: status.id, points, epoch: parsed.epoch, epochs: parsed.epochs });
});
