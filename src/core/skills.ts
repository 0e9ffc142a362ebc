/** The six cognitive-game skills of SPADE, with the description the designer prompt shows. */
export const GAME_SKILLS: Readonly<Record<string, string>> = {
  'Mathematical Reasoning': 'arithmetic, number theory, algebra and counting carried out over several steps',
  'Logical Deduction': 'drawing certain conclusions from rules, clues and constraints',
  'Spatial Reasoning': 'positions, directions, shapes, grids and movement in space',
  'Pattern Recognition': 'finding the rule behind sequences, arrangements and transformations',
  Optimization: 'reaching the best outcome under limits on moves, cost or resources',
  'Causal Inference': 'telling causes from correlations by acting on a system and watching effects',
};
