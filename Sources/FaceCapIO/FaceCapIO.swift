import FaceCapCore

/// The edges of facecap: camera, clip files, image files, model files.
public enum FaceCapIO {}
