// The training recipe the app's own tests give the workbench (ServiceOptions.trainingExamples): each
// question's initial slice only, without episode, corr/ind-variant and text-only examples (about a fifth of
// the examples, so a fifth of the fitting). What those tests check is the loop around a training (its plan,
// progress, card, listing and comparison), not the model; test/train/ trains the full recipe, but for the
// twin options' trainings in twins.test.ts, which check that a training takes the option and records it.
import type { TrainingExamples } from '../electron/backend/worker-protocol';

export const TINY_TRAINING: TrainingExamples = { episodes: false, variants: false, textOnly: false };
