# fixed_eras.sh: sourced by known_gaps.sh and verdict.sh. fixed_eras DIR
# copies a fixed set of the era scenarios (cases/mtg/eras) into DIR, so the
# counts and file sizes those tests expect do not move when new era
# scenarios are written. Run from the source tree's top.
fixed_eras() {
  mkdir -p "$1" || return 2
  local stem
  for stem in ante-zones copy-of-creature-spell-resolves-into-token draw-from-empty-library \
      exile-to-exile graveyard-reorder instant-into-play move-together-member-that-did-not-move-keeps-its-place \
      permanent-spell-keeps-marks phased-out-token phasing-out-and-in then-finds-moved-object \
      token-left-play-moved-to-exile token-left-play-returned-to-play trigger-finds-card-in-owners-hand \
      wish-for-removed-card; do
    cp cases/mtg/eras/"$stem".*.yaml "$1"/ || return 2
  done
}
