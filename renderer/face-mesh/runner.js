// MediaPipe Face Mesh for the app page that frames this one: it posts { id, image } (an
// ImageBitmap) and gets back { id, faces } (each face's points as [x, y, z], x and y as fractions
// of the image) or { id, error }. Messages from anywhere but the parent page of this origin are ignored.
(() => {
  let faces = [];
  const mesh = new FaceMesh({ locateFile: (file) => file });
  mesh.setOptions({ maxNumFaces: 3, refineLandmarks: true, staticImageMode: true, minDetectionConfidence: 0.5 });
  mesh.onResults((r) => {
    faces = r.multiFaceLandmarks || [];
  });
  const ready = mesh.initialize();
  addEventListener('message', async (e) => {
    if (e.origin !== location.origin || e.source !== parent) return;
    const { id, image } = e.data || {};
    try {
      await ready;
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext('2d').drawImage(image, 0, 0);
      faces = [];
      await mesh.send({ image: canvas });
      parent.postMessage({ id, faces: faces.map((f) => f.map((p) => [p.x, p.y, p.z])) }, location.origin);
    } catch (err) {
      parent.postMessage({ id, error: String((err && err.message) || err) }, location.origin);
    }
  });
  parent.postMessage({ ready: true }, location.origin);
})();
